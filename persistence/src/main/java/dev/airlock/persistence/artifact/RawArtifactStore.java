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
 * The only way into the {@code restricted} schema. It stores raw artifacts and answers whether
 * one exists and what its digest is; it offers no way to read the bytes back.
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
     * @param sha256 digest of the artifact, as the envelope's reference names it
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void store(UUID runId, String sha256, byte[] stdout, byte[] stderr, Instant now) {
        jdbc.sql("""
                INSERT INTO restricted.raw_artifacts (run_id, sha256, stdout, stderr, created_at)
                VALUES (:run, :sha, :stdout, :stderr, :now)
                """)
                .param("run", runId)
                .param("sha", sha256)
                .param("stdout", stdout)
                .param("stderr", stderr)
                .param("now", Timestamp.from(now))
                .update();
    }

    /** The stored artifact's digest, if the run has one. */
    @Transactional(readOnly = true)
    public Optional<String> digest(UUID runId) {
        return jdbc.sql("SELECT sha256 FROM restricted.raw_artifacts WHERE run_id = :run")
                .param("run", runId)
                .query(String.class)
                .optional();
    }
}
