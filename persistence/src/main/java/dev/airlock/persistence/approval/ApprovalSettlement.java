package dev.airlock.persistence.approval;

import dev.airlock.persistence.run.RunClaims;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Moves a run as its closed approval request says, through the owner's database function
 * {@code airlock.settle_approval} (the people's side may not update runs), and wakes the agent
 * side for an approved run with {@code NOTIFY}, both in the caller's transaction.
 */
@Repository
public class ApprovalSettlement {

    private final JdbcClient jdbc;

    ApprovalSettlement(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The run's new state, or empty when it had already ended another way. */
    public Optional<String> settle(UUID runId, Instant now) {
        return jdbc.sql("SELECT airlock.settle_approval(:run, :now)")
                .param("run", runId)
                .param("now", Timestamp.from(now))
                .query(String.class)
                .optional();
    }

    /**
     * Tells every agent-side replica listening that {@code tenant} has an approved run to start; not once the
     * server's notification queue is half full (a full queue would fail the decision's commit), when replicas
     * find the run at their next poll.
     */
    public void announceApproved(String tenant) {
        jdbc.sql("SELECT CASE WHEN pg_notification_queue_usage() < 0.5 THEN pg_notify(:channel, :payload) END")
                .param("channel", RunClaims.APPROVED_CHANNEL)
                .param("payload", tenant)
                .query(Object.class)
                .optional();
    }
}
