package dev.airlock.persistence.artifact;

import dev.airlock.persistence.run.StreamName;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Writes raw artifacts into the {@code restricted} schema, describes them, and reads their bytes
 * for the one caller allowed to: the grant service of approval-service, which checks a grant
 * first (an architecture test keeps every other class away from {@link #read}); the database
 * checks the grant again and records the read.
 */
@Component
public class RawArtifactStore {

    private final JdbcClient jdbc;

    RawArtifactStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Stores the retained raw bytes of a run's streams.
     *
     * @param sha256     digest of the stored bytes ({@link RawArtifactDigest}), as the envelope's reference names it
     * @param redactions how many injected secret values were replaced in the stored bytes
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void store(
            UUID runId, String tenant, String sha256, byte[] stdout, byte[] stderr, long redactions, Instant now) {
        jdbc.sql("""
                INSERT INTO restricted.raw_artifacts (run_id, tenant, sha256, stdout, stderr, stdout_bytes, stderr_bytes,
                                                      redactions, created_at)
                VALUES (:run, :tenant, :sha, :stdout, :stderr, :stdoutBytes, :stderrBytes, :redactions, :now)
                """)
                .param("redactions", redactions)
                .param("run", runId)
                .param("tenant", tenant)
                .param("sha", sha256)
                .param("stdout", stdout)
                .param("stderr", stderr)
                .param("stdoutBytes", stdout.length)
                .param("stderrBytes", stderr.length)
                .param("now", Timestamp.from(now))
                .update();
    }

    /** The stored artifact's digest, if the run has one (it survives the purge of the bytes). */
    @Transactional(readOnly = true)
    public Optional<String> digest(UUID runId) {
        return jdbc.sql("SELECT sha256 FROM restricted.raw_artifacts WHERE run_id = :run")
                .param("run", runId)
                .query(String.class)
                .optional();
    }

    /**
     * Reads bytes of one stream of a run's artifact through {@code restricted.read_raw}: the
     * database checks that {@code grantId} is a granted, unexpired grant of one of the
     * transaction's tenants whose requester has {@code readerIdentity} (a grant recorded without
     * an identity is never read), records the read under {@code reader}, and checks the whole stored
     * artifact against its recorded digest without any other byte leaving it. No role may select
     * the bytes any other way.
     *
     * @param reader         the reader's name, recorded with the read
     * @param readerIdentity the reader's stable identity, which must be the grant's requester's
     * @param offset         the first byte
     * @param length         how many bytes at most
     * @return empty when the run has no artifact
     * @throws org.springframework.dao.DataAccessException (a permission error) when the grant does not allow it
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<StoredBytes> read(
            UUID grantId, String reader, String readerIdentity, StreamName stream, int offset, int length) {
        return jdbc.sql("SELECT * FROM restricted.read_raw(:grant, :reader, :identity, :stream, :from, :length)")
                .param("grant", grantId)
                .param("reader", reader)
                .param("identity", readerIdentity)
                .param("stream", stream == StreamName.STDOUT ? "stdout" : "stderr")
                .param("from", offset)
                .param("length", length)
                .query((rs, n) -> new StoredBytes(
                        rs.getBytes(1),
                        rs.getLong(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getTimestamp(5) == null ? null : rs.getTimestamp(5).toInstant()))
                .optional();
    }

    /**
     * Bytes read from a stored artifact.
     *
     * @param bytes          the bytes read (null once purged)
     * @param streamBytes    the stream's stored length
     * @param recordedSha256 the digest recorded when the artifact was stored
     * @param actualSha256   the digest of the bytes stored now (null once purged)
     * @param purgedAt       when retention removed the bytes, or null
     */
    public record StoredBytes(
            byte @Nullable [] bytes,
            long streamBytes,
            String recordedSha256,
            @Nullable String actualSha256,
            @Nullable Instant purgedAt) {}

    /** What is known of a run's artifact without reading its bytes. */
    @Transactional(readOnly = true)
    public Optional<RawArtifactFacts> describe(String tenant, UUID runId) {
        return jdbc.sql("""
                SELECT run_id, sha256, stdout_bytes, stderr_bytes, created_at, purged_at, redactions
                  FROM restricted.raw_artifacts WHERE run_id = :run AND tenant = :tenant
                """)
                .param("run", runId)
                .param("tenant", tenant)
                .query((rs, n) -> new RawArtifactFacts(
                        rs.getObject(1, UUID.class),
                        rs.getString(2),
                        rs.getLong(3),
                        rs.getLong(4),
                        rs.getTimestamp(5).toInstant(),
                        rs.getTimestamp(6) == null ? null : rs.getTimestamp(6).toInstant(),
                        rs.getLong(7)))
                .optional();
    }

    /**
     * What is known of a run's artifact without its bytes.
     *
     * @param runId       the run
     * @param sha256      the artifact's digest as recorded when it was stored
     * @param stdoutBytes retained stdout bytes
     * @param stderrBytes retained stderr bytes
     * @param storedAt    when it was stored
     * @param purgedAt    when retention removed the bytes, or null while they exist
     * @param redactions  how many injected secret values were replaced in the stored bytes
     */
    public record RawArtifactFacts(
            UUID runId,
            String sha256,
            long stdoutBytes,
            long stderrBytes,
            Instant storedAt,
            @Nullable Instant purgedAt,
            long redactions) {

        /** Whether the bytes still exist. */
        public boolean present() {
            return purgedAt == null;
        }
    }
}
