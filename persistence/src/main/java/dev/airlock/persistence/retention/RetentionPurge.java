package dev.airlock.persistence.retention;

import dev.airlock.persistence.audit.AuditEventType;
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
 * <p>The removals are the database's functions {@code airlock.purge_retained} and
 * {@code airlock.purge_unlinked_runs}: no application role may delete these records itself.
 *
 * <p>Order: raw bytes (the artifact row keeps digest, sizes and purge time), transcripts,
 * decided approvals, the oldest audit events, and last the run rows (with their stream facts,
 * artifact remnant and grants) that nothing linked to any longer.
 */
@Component
public class RetentionPurge {

    /** The tenant's purge lock (a transaction-level advisory lock on the hash of this and the tenant's name). */
    static final String LOCK_PREFIX = "airlock-retention:";

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
                .param("key", LOCK_PREFIX + tenant)
                .query(Boolean.class)
                .single();
        if (!locked) {
            return Optional.empty();
        }
        Integer[] purged = jdbc.sql("SELECT airlock.purge_retained(:tenant, :raw, :transcripts, :approvals, :now)")
                .param("tenant", tenant)
                .param("raw", Timestamp.from(cutoffs.raw()))
                .param("transcripts", Timestamp.from(cutoffs.transcripts()))
                .param("approvals", Timestamp.from(cutoffs.approvals()))
                .param("now", Timestamp.from(now))
                .query((rs, n) -> (Integer[]) rs.getArray(1).getArray())
                .single();
        int raw = purged[0];
        int transcripts = purged[1];
        int approvals = purged[2];
        AuditLog.ChainStart cut = audit.removeOldest(tenant, cutoffs.auditEvents(), now);
        int runs = removeUnlinkedRuns(tenant, cutoffs.auditEvents());
        PurgeCounts counts = new PurgeCounts(raw, transcripts, approvals, cut == null ? 0 : cut.removed(), runs);
        Map<String, String> details = new TreeMap<>(Map.of(
                "rawArtifacts", Integer.toString(raw),
                "transcripts", Integer.toString(transcripts),
                "approvals", Integer.toString(approvals),
                "auditEvents", Integer.toString(counts.auditEvents()),
                "runs", Integer.toString(runs)));
        // What the purge was allowed to remove, so that the chain shows a cut's reach, not only its size.
        details.put("rawBefore", cutoffs.raw().toString());
        details.put("transcriptsBefore", cutoffs.transcripts().toString());
        details.put("approvalsBefore", cutoffs.approvals().toString());
        details.put("auditEventsBefore", cutoffs.auditEvents().toString());
        if (cut != null) {
            details.put(AuditLog.CHAIN_START_KEY, cut.token());
        }
        audit.append(tenant, AuditEventType.RETENTION_PURGED, null, "airlock", details, now);
        return Optional.of(counts);
    }

    private int removeUnlinkedRuns(String tenant, Instant before) {
        return jdbc.sql("SELECT airlock.purge_unlinked_runs(:tenant, :before)")
                .param("tenant", tenant)
                .param("before", Timestamp.from(before))
                .query(Integer.class)
                .single();
    }
}
