package dev.airlock.persistence.retention;

import dev.airlock.persistence.audit.AuditLog;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Purges one tenant's records whose retention has ended, in one transaction that also writes the
 * {@code retention.purged} audit event with the counts (zeros included, so the log shows that
 * retention ran). Runs under a legal hold are skipped
 * entirely. A transaction-scoped advisory lock lets one replica at a time purge a tenant.
 *
 * <p>Order: raw bytes (the artifact row keeps digest, sizes and purge time), transcripts,
 * decided approvals, the oldest audit events, and last the run rows (with their stream facts,
 * artifact remnant and grants) that nothing linked to any longer.
 */
@Component
public class RetentionPurge {

    private static final String NOT_HELD = " AND NOT EXISTS (SELECT 1 FROM airlock.legal_holds h WHERE h.run_id = %s)";

    private final JdbcClient jdbc;
    private final AuditLog audit;

    RetentionPurge(JdbcClient jdbc, AuditLog audit) {
        this.jdbc = jdbc;
        this.audit = audit;
    }

    /** Purges the tenant, or returns empty when another replica holds the tenant's purge lock. */
    @Transactional
    public Optional<PurgeCounts> purge(String tenant, RetentionCutoffs cutoffs, Instant now) {
        Boolean locked = jdbc.sql("SELECT pg_try_advisory_xact_lock(hashtext(:key))")
                .param("key", "airlock-retention:" + tenant).query(Boolean.class).single();
        if (!locked) {
            return Optional.empty();
        }
        int raw = jdbc.sql("""
                UPDATE restricted.raw_artifacts a SET stdout = NULL, stderr = NULL, purged_at = :now
                 WHERE a.tenant = :tenant AND a.purged_at IS NULL AND a.created_at < :before""" + NOT_HELD.formatted("a.run_id"))
                .param("tenant", tenant).param("before", Timestamp.from(cutoffs.raw())).param("now", Timestamp.from(now))
                .update();
        int transcripts = jdbc.sql("""
                DELETE FROM airlock.transcripts t USING airlock.runs r
                 WHERE r.id = t.run_id AND r.tenant = :tenant AND t.created_at < :before""" + NOT_HELD.formatted("t.run_id"))
                .param("tenant", tenant).param("before", Timestamp.from(cutoffs.transcripts()))
                .update();
        String decidedApprovals = "SELECT a.run_id FROM airlock.approval_requests a WHERE a.tenant = :tenant"
                + " AND a.status <> 'PENDING' AND a.created_at < :before" + NOT_HELD.formatted("a.run_id");
        jdbc.sql("DELETE FROM airlock.approval_decisions WHERE run_id IN (" + decidedApprovals + ")")
                .param("tenant", tenant).param("before", Timestamp.from(cutoffs.approvals())).update();
        int approvals = jdbc.sql("DELETE FROM airlock.approval_requests WHERE run_id IN (" + decidedApprovals + ")")
                .param("tenant", tenant).param("before", Timestamp.from(cutoffs.approvals())).update();
        AuditLog.ChainStart cut = audit.removeOldest(tenant, cutoffs.auditEvents(), now);
        int runs = removeUnlinkedRuns(tenant, cutoffs.auditEvents());
        PurgeCounts counts = new PurgeCounts(raw, transcripts, approvals, cut == null ? 0 : cut.removed(), runs);
        Map<String, String> details = new TreeMap<>(Map.of(
                "rawArtifacts", Integer.toString(raw),
                "transcripts", Integer.toString(transcripts),
                "approvals", Integer.toString(approvals),
                "auditEvents", Integer.toString(counts.auditEvents()),
                "runs", Integer.toString(runs)));
        if (cut != null) {
            details.put(AuditLog.CHAIN_START_KEY, cut.token());
        }
        audit.append(tenant, AuditLog.RETENTION_PURGED, null, "airlock", details, now);
        return Optional.of(counts);
    }

    private int removeUnlinkedRuns(String tenant, Instant before) {
        String unlinked = """
                SELECT r.id FROM airlock.runs r
                 WHERE r.tenant = :tenant AND r.created_at < :before
                   AND r.state IN ('COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED', 'DENIED', 'EXPIRED')
                   AND NOT EXISTS (SELECT 1 FROM airlock.transcripts t WHERE t.run_id = r.id)
                   AND NOT EXISTS (SELECT 1 FROM airlock.approval_requests a WHERE a.run_id = r.id)
                   AND NOT EXISTS (SELECT 1 FROM airlock.audit_events e WHERE e.run_id = r.id)
                   AND NOT EXISTS (SELECT 1 FROM restricted.raw_artifacts x WHERE x.run_id = r.id AND x.purged_at IS NULL)
                """ + NOT_HELD.formatted("r.id");
        for (String dependent : new String[] {"restricted.raw_grants", "restricted.raw_artifacts", "airlock.run_streams"}) {
            jdbc.sql("DELETE FROM " + dependent + " WHERE run_id IN (" + unlinked + ")")
                    .param("tenant", tenant).param("before", Timestamp.from(before)).update();
        }
        return jdbc.sql("DELETE FROM airlock.runs WHERE id IN (" + unlinked + ")")
                .param("tenant", tenant).param("before", Timestamp.from(before)).update();
    }
}
