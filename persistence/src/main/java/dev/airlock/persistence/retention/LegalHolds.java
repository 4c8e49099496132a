package dev.airlock.persistence.retention;

import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** Legal holds: while a run has one, no retention purge touches anything of it. */
@Component
public class LegalHolds {

    private final JdbcClient jdbc;
    private final AuditLog audit;

    LegalHolds(JdbcClient jdbc, AuditLog audit) {
        this.jdbc = jdbc;
        this.audit = audit;
    }

    /**
     * Places a hold on a run of the tenant; returns false when the run already has one.
     *
     * @throws IllegalArgumentException when the reason is blank
     * @throws NoSuchElementException   when the tenant has no such run
     */
    @Transactional
    public boolean place(String tenant, UUID runId, @Nullable String reason, String by, Instant now) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("A legal hold needs a reason.");
        }
        // After a purge of the tenant that is under way, never during it: the purge decided what is held
        // when it began, and a hold committed meanwhile would be answered as placed while its run is purged
        // (and a run the purge removed is then no run of the tenant, not a broken key).
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtext(:key))")
                .param("key", RetentionPurge.LOCK_PREFIX + tenant)
                .query((rs, n) -> 1)
                .single();
        boolean exists = jdbc.sql("SELECT count(*) > 0 FROM airlock.runs WHERE id = :run AND tenant = :tenant")
                .param("run", runId)
                .param("tenant", tenant)
                .query(Boolean.class)
                .single();
        if (!exists) {
            throw new NoSuchElementException("No run " + runId + " in tenant " + tenant + ".");
        }
        int placed = jdbc.sql("""
                INSERT INTO airlock.legal_holds (run_id, tenant, reason, placed_by, placed_at)
                VALUES (:run, :tenant, :reason, :by, :now) ON CONFLICT (run_id) DO NOTHING
                """)
                .param("run", runId)
                .param("tenant", tenant)
                .param("reason", reason.strip())
                .param("by", by)
                .param("now", Timestamp.from(now))
                .update();
        if (placed == 1) {
            audit.append(
                    tenant,
                    AuditEventType.LEGAL_HOLD_PLACED,
                    runId,
                    "human:" + by,
                    Map.of("reason", reason.strip()),
                    now);
        }
        return placed == 1;
    }

    /** Releases a run's hold; returns false when it had none. */
    @Transactional
    public boolean release(String tenant, UUID runId, @Nullable String reason, String by, Instant now) {
        int released = jdbc.sql("DELETE FROM airlock.legal_holds WHERE run_id = :run AND tenant = :tenant")
                .param("run", runId)
                .param("tenant", tenant)
                .update();
        if (released == 1) {
            audit.append(
                    tenant,
                    AuditEventType.LEGAL_HOLD_RELEASED,
                    runId,
                    "human:" + by,
                    Map.of("reason", reason == null ? "" : reason.strip()),
                    now);
        }
        return released == 1;
    }

    /** The run's hold, if it has one. */
    @Transactional(readOnly = true)
    public Optional<Hold> find(String tenant, UUID runId) {
        return jdbc.sql(
                        "SELECT reason, placed_by, placed_at FROM airlock.legal_holds WHERE run_id = :run AND tenant = :tenant")
                .param("run", runId)
                .param("tenant", tenant)
                .query((rs, n) -> new Hold(
                        rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant()))
                .optional();
    }

    /**
     * A hold in force.
     *
     * @param reason   why
     * @param placedBy who placed it
     * @param placedAt when
     */
    public record Hold(String reason, String placedBy, Instant placedAt) {}
}
