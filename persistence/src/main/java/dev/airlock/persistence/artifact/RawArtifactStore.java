package dev.airlock.persistence.artifact;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Writes raw artifacts into the {@code restricted} schema and describes them. It offers no way
 * to read the bytes back: only {@link RawGrants#open} does, for the holder of a grant.
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
     * @param sha256 digest of the artifact ({@link RawArtifactDigest}), as the envelope's reference names it
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void store(UUID runId, String tenant, String sha256, byte[] stdout, byte[] stderr, Instant now) {
        jdbc.sql("""
                INSERT INTO restricted.raw_artifacts (run_id, tenant, sha256, stdout, stderr, stdout_bytes, stderr_bytes, created_at)
                VALUES (:run, :tenant, :sha, :stdout, :stderr, :stdoutBytes, :stderrBytes, :now)
                """)
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

    /** What is known of a run's artifact without reading its bytes. */
    @Transactional(readOnly = true)
    public Optional<RawArtifactFacts> describe(String tenant, UUID runId) {
        return jdbc.sql("""
                SELECT run_id, sha256, stdout_bytes, stderr_bytes, created_at, purged_at
                  FROM restricted.raw_artifacts WHERE run_id = :run AND tenant = :tenant
                """)
                .param("run", runId)
                .param("tenant", tenant)
                .query((rs, n) -> new RawArtifactFacts(rs.getObject(1, UUID.class), rs.getString(2), rs.getLong(3),
                        rs.getLong(4), rs.getTimestamp(5).toInstant(),
                        rs.getTimestamp(6) == null ? null : rs.getTimestamp(6).toInstant()))
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
     */
    public record RawArtifactFacts(UUID runId, String sha256, long stdoutBytes, long stderrBytes, Instant storedAt,
            Instant purgedAt) {

        /** Whether the bytes still exist. */
        public boolean present() {
            return purgedAt == null;
        }
    }
}
