package dev.airlock.persistence.notification;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * The chat and e-mail messages about approval requests: claimed before they are sent (so each is
 * sent once across replicas), then marked sent or failed with the attempts it took.
 */
@Component
public class NotificationDeliveries {

    private final JdbcClient jdbc;

    NotificationDeliveries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** How a message's delivery went. */
    public enum Status {
        /** Claimed; being sent (or the replica sending it stopped). */
        SENDING,
        /** The channel accepted it. */
        SENT,
        /** Every attempt failed. */
        FAILED
    }

    /**
     * One message.
     *
     * @param id        its id
     * @param tenant    the tenant
     * @param runId     the request's run
     * @param channel   the channel's name
     * @param event     what it announced
     * @param status    how its delivery went
     * @param attempts  attempts made
     * @param lastError why the last attempt failed, or null
     * @param createdAt when it was claimed
     */
    public record Delivery(
            long id,
            String tenant,
            UUID runId,
            String channel,
            String event,
            Status status,
            int attempts,
            @Nullable String lastError,
            Instant createdAt) {}

    /** Claims the message {@code event} about {@code runId} on {@code channel}; empty when it was claimed before. */
    @Transactional
    public Optional<Long> claim(String tenant, UUID runId, String channel, String event, Instant now) {
        return jdbc.sql("""
                INSERT INTO airlock.notification_deliveries
                    (tenant, run_id, channel, event, status, attempts, created_at, updated_at)
                VALUES (:tenant, :run, :channel, :event, 'SENDING', 0, :now, :now)
                ON CONFLICT (run_id, channel, event) DO NOTHING
                RETURNING id
                """)
                .param("tenant", tenant)
                .param("run", runId)
                .param("channel", channel)
                .param("event", event)
                .param("now", Timestamp.from(now))
                .query(Long.class)
                .optional();
    }

    /** Records how the delivery of message {@code id} went. */
    @Transactional
    public void record(long id, Status status, int attempts, @Nullable String lastError, Instant now) {
        jdbc.sql("""
                UPDATE airlock.notification_deliveries
                SET status = :status, attempts = :attempts, last_error = :error, updated_at = :now WHERE id = :id
                """)
                .param("status", status.name())
                .param("attempts", attempts)
                .param(
                        "error",
                        lastError == null ? null : lastError.length() > 500 ? lastError.substring(0, 500) : lastError)
                .param("now", Timestamp.from(now))
                .param("id", id)
                .update();
    }

    /** Most requests one pass reminds or escalates; the rest wait for the next pass. */
    public static final int BATCH = 100;

    /**
     * Pending requests of {@code tenant} that expire at or before {@code remindFrom} and were not
     * reminded yet: only these are read, however many requests are pending.
     */
    @Transactional(readOnly = true)
    public List<UUID> remindersDue(String tenant, Instant remindFrom) {
        return due(tenant, "expires_at", remindFrom, "approval.reminder");
    }

    /** Pending requests of {@code tenant} opened at or before {@code openedBy} and not escalated yet. */
    @Transactional(readOnly = true)
    public List<UUID> escalationsDue(String tenant, Instant openedBy) {
        return due(tenant, "created_at", openedBy, "approval.escalated");
    }

    private List<UUID> due(String tenant, String column, Instant cutoff, String event) {
        // column is one of two fixed names above, never input.
        return jdbc.sql(
                        "SELECT r.run_id FROM airlock.approval_requests r WHERE r.tenant = :tenant AND r.status = 'PENDING'"
                                + " AND r." + column
                                + " <= :cutoff AND NOT EXISTS (SELECT 1 FROM airlock.notification_deliveries n"
                                + " WHERE n.run_id = r.run_id AND n.event = :event) ORDER BY r." + column
                                + " LIMIT :batch")
                .param("tenant", tenant)
                .param("cutoff", Timestamp.from(cutoff))
                .param("event", event)
                .param("batch", BATCH)
                .query((rs, n) -> rs.getObject("run_id", UUID.class))
                .list();
    }

    /**
     * Messages claimed more than {@code staleAfter} ago and never recorded as sent or failed (the
     * replica sending them stopped): claimed again now, to be sent again.
     */
    @Transactional
    public List<Delivery> reclaimStale(java.util.Collection<String> tenants, Instant staleBefore, Instant now) {
        if (tenants.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                UPDATE airlock.notification_deliveries SET updated_at = :now
                WHERE id IN (SELECT id FROM airlock.notification_deliveries
                             WHERE status = 'SENDING' AND updated_at < :stale AND tenant IN (:tenants)
                             ORDER BY id LIMIT :batch FOR UPDATE SKIP LOCKED)
                RETURNING *
                """)
                .param("now", Timestamp.from(now))
                .param("stale", Timestamp.from(staleBefore))
                .param("tenants", tenants)
                .param("batch", BATCH)
                .query((rs, n) -> delivery(rs))
                .list();
    }

    private static Delivery delivery(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Delivery(
                rs.getLong("id"),
                rs.getString("tenant"),
                rs.getObject("run_id", UUID.class),
                rs.getString("channel"),
                rs.getString("event"),
                Status.valueOf(rs.getString("status")),
                rs.getInt("attempts"),
                rs.getString("last_error"),
                rs.getTimestamp("created_at").toInstant());
    }

    /** The messages about one run, oldest first. */
    @Transactional(readOnly = true)
    public List<Delivery> of(UUID runId) {
        return jdbc.sql("SELECT * FROM airlock.notification_deliveries WHERE run_id = :run ORDER BY id")
                .param("run", runId)
                .query((rs, n) -> delivery(rs))
                .list();
    }
}
