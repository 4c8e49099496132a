package dev.airlock.persistence.run;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Moves approved runs to RUNNING so that each is executed exactly once, whatever the number of
 * gateway replicas: a conditional update for one run, {@code FOR UPDATE SKIP LOCKED} for the
 * next ones in line.
 */
@Component
public class RunClaims {

    private final JdbcClient jdbc;

    RunClaims(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Claims up to {@code limit} APPROVED runs of {@code tenant}, oldest first, skipping rows that
     * other replicas are claiming at the same moment.
     */
    @Transactional
    public List<UUID> claimNext(String node, String tenant, int limit, Instant now) {
        return jdbc.sql("""
                UPDATE airlock.runs SET state = 'RUNNING', claimed_by = :node, started_at = :now,
                       updated_at = :now, version = version + 1
                 WHERE id IN (SELECT id FROM airlock.runs WHERE state = 'APPROVED' AND tenant = :tenant
                               ORDER BY created_at LIMIT :limit FOR UPDATE SKIP LOCKED)
                RETURNING id
                """)
                .param("node", node)
                .param("tenant", tenant)
                .param("now", Timestamp.from(now))
                .param("limit", limit)
                .query(UUID.class)
                .list();
    }

    /** How many runs of {@code tenant} wait in APPROVED for an executor. */
    @Transactional(readOnly = true)
    public int countApproved(String tenant) {
        return jdbc.sql("SELECT count(*) FROM airlock.runs WHERE state = 'APPROVED' AND tenant = :tenant")
                .param("tenant", tenant)
                .query(Integer.class)
                .single();
    }

    /** Runs this node is executing that someone asked to cancel. */
    @Transactional(readOnly = true)
    public List<UUID> cancelRequested(String node) {
        return jdbc.sql("SELECT id FROM airlock.runs WHERE state = 'RUNNING' AND cancel_requested AND claimed_by = :node")
                .param("node", node)
                .query(UUID.class)
                .list();
    }

    /**
     * Runs left RUNNING by this node in an earlier life (a crash or a kill): their processes are
     * gone, so they are marked FAILED with the given reason.
     */
    @Transactional
    public int failOrphans(String node, String reason, Instant now) {
        return jdbc.sql("""
                UPDATE airlock.runs SET state = 'FAILED', termination = 'SPAWN_FAILED', failure = :reason,
                       ended_at = :now, updated_at = :now, version = version + 1
                 WHERE state = 'RUNNING' AND claimed_by = :node
                """)
                .param("node", node)
                .param("reason", reason)
                .param("now", Timestamp.from(now))
                .update();
    }
}
