package dev.airlock.persistence.artifact;

import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.run.StreamName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * The one way to the bytes of a raw artifact: a person asks for a grant with a reason, a second
 * person decides when the tenant's policy says so, and the requester alone reads the bytes until
 * the grant expires. Every request, decision and use is written to the audit log in the same
 * transaction; every read checks the stored artifact against its recorded digest.
 */
@Component
public class RawGrants {

    /** How long a request waits for its decision. */
    public static final Duration DECISION_WINDOW = Duration.ofHours(24);

    private static final Logger log = LoggerFactory.getLogger(RawGrants.class);

    /** The artifact digest of {@link RawArtifactDigest}, computed by the database from the stored bytes. */
    private static final String STORED_DIGEST = """
            encode(sha256(convert_to('airlock-raw-artifact-v1' || chr(10) || 'stdout ' || length(a.stdout) || chr(10), 'UTF8')
                || a.stdout || convert_to('stderr ' || length(a.stderr) || chr(10), 'UTF8') || a.stderr), 'hex')""";

    private final JdbcClient jdbc;
    private final RawArtifactStore artifacts;
    private final AuditLog audit;

    RawGrants(JdbcClient jdbc, RawArtifactStore artifacts, AuditLog audit) {
        this.jdbc = jdbc;
        this.artifacts = artifacts;
        this.audit = audit;
    }

    /**
     * Asks for access to one run's raw artifact.
     *
     * @param secondPerson whether another person must grant it; otherwise it is granted at once
     * @param ttl          how long a granted access lasts
     */
    @Transactional
    public RawGrant request(String tenant, UUID runId, String requester, String reason, boolean secondPerson, Duration ttl,
            Instant at) {
        Instant now = at.truncatedTo(ChronoUnit.MICROS);
        if (reason == null || reason.isBlank()) {
            throw new GrantRefused(GrantRefused.Reason.REASON_REQUIRED, "Say why you need the raw bytes.");
        }
        RawArtifactStore.RawArtifactFacts facts = artifacts.describe(tenant, runId)
                .orElseThrow(() -> new GrantRefused(GrantRefused.Reason.NOT_FOUND, "Run " + runId + " has no raw artifact."));
        if (!facts.present()) {
            throw new GrantRefused(GrantRefused.Reason.PURGED, "The raw bytes of run " + runId + " were purged at "
                    + facts.purgedAt() + "; only their digest and sizes remain.");
        }
        RawGrant grant = new RawGrant(UUID.randomUUID(), tenant, runId, requester, reason.strip(),
                secondPerson ? "PENDING" : "GRANTED", null, null, now, secondPerson ? null : now,
                now.plus(secondPerson ? DECISION_WINDOW : ttl));
        jdbc.sql("""
                INSERT INTO restricted.raw_grants (id, tenant, run_id, requester, reason, status, requested_at, decided_at, expires_at)
                VALUES (:id, :tenant, :run, :requester, :reason, :status, :requestedAt, :decidedAt, :expiresAt)
                """)
                .param("id", grant.id())
                .param("tenant", tenant)
                .param("run", runId)
                .param("requester", requester)
                .param("reason", grant.reason())
                .param("status", grant.status())
                .param("requestedAt", Timestamp.from(now))
                .param("decidedAt", secondPerson ? null : Timestamp.from(now))
                .param("expiresAt", Timestamp.from(grant.expiresAt()))
                .update();
        audit.append(tenant, "raw.grant.requested", runId, "human:" + requester,
                Map.of("grant", grant.id().toString(), "reason", grant.reason(), "secondPerson", Boolean.toString(secondPerson)), now);
        if (!secondPerson) {
            audit.append(tenant, "raw.grant.decided", runId, "airlock", Map.of("grant", grant.id().toString(),
                    "decision", "GRANTED", "policy", "single-person", "expiresAt", grant.expiresAt().toString()), now);
        }
        return grant;
    }

    /**
     * Decides on a pending request. The decider must be someone other than the requester; the
     * caller has checked they hold a deciding role in the grant's tenant.
     *
     * @param tenants the tenants where the decider may decide
     * @param granted whether access is granted
     * @param ttl     how long a granted access lasts from now
     */
    @Transactional
    public RawGrant decide(UUID grantId, Collection<String> tenants, String decider, boolean granted, String reason,
            Duration ttl, Instant at) {
        Instant now = at.truncatedTo(ChronoUnit.MICROS);
        RawGrant grant = jdbc.sql("SELECT * FROM restricted.raw_grants WHERE id = :id AND tenant IN (:tenants) FOR UPDATE")
                .param("id", grantId)
                .param("tenants", tenants.isEmpty() ? List.of("") : tenants)
                .query(RawGrants::grant)
                .optional()
                .orElseThrow(() -> notFound(grantId));
        if (grant.requester().equals(decider)) {
            throw new GrantRefused(GrantRefused.Reason.SELF_APPROVAL, "You asked for this grant; someone else must decide on it.");
        }
        if (!grant.status().equals("PENDING")) {
            throw new GrantRefused(GrantRefused.Reason.ALREADY_DECIDED, "This request was " + grant.status().toLowerCase()
                    + " by " + grant.decidedBy() + ".");
        }
        if (!now.isBefore(grant.expiresAt())) {
            throw new GrantRefused(GrantRefused.Reason.EXPIRED, "This request lapsed at " + grant.expiresAt() + ".");
        }
        String status = granted ? "GRANTED" : "REFUSED";
        Instant expiresAt = granted ? now.plus(ttl) : grant.expiresAt();
        String why = reason == null || reason.isBlank() ? null : reason.strip();
        jdbc.sql("""
                UPDATE restricted.raw_grants SET status = :status, decided_by = :decider, decision_reason = :reason,
                       decided_at = :now, expires_at = :expiresAt WHERE id = :id
                """)
                .param("status", status)
                .param("decider", decider)
                .param("reason", why)
                .param("now", Timestamp.from(now))
                .param("expiresAt", Timestamp.from(expiresAt))
                .param("id", grantId)
                .update();
        Map<String, String> details = new TreeMap<>(Map.of("grant", grantId.toString(), "decision", status));
        if (why != null) {
            details.put("reason", why);
        }
        if (granted) {
            details.put("expiresAt", expiresAt.toString());
        }
        audit.append(grant.tenant(), "raw.grant.decided", grant.runId(), "human:" + decider, details, now);
        return new RawGrant(grant.id(), grant.tenant(), grant.runId(), grant.requester(), grant.reason(), status, decider, why,
                grant.requestedAt(), now, expiresAt);
    }

    /** A grant in one of the given tenants. */
    @Transactional(readOnly = true)
    public Optional<RawGrant> find(UUID grantId, Collection<String> tenants) {
        if (tenants.isEmpty()) {
            return Optional.empty();
        }
        return jdbc.sql("SELECT * FROM restricted.raw_grants WHERE id = :id AND tenant IN (:tenants)")
                .param("id", grantId)
                .param("tenants", tenants)
                .query(RawGrants::grant)
                .optional();
    }

    /** The newest grants of the given tenants, newest first. */
    @Transactional(readOnly = true)
    public List<RawGrant> recent(Collection<String> tenants, int limit) {
        if (tenants.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT * FROM restricted.raw_grants WHERE tenant IN (:tenants) ORDER BY requested_at DESC LIMIT :limit")
                .param("tenants", tenants)
                .param("limit", limit)
                .query(RawGrants::grant)
                .list();
    }

    /** The grants asked for on one run, oldest first. */
    @Transactional(readOnly = true)
    public List<RawGrant> forRun(String tenant, UUID runId) {
        return jdbc.sql("SELECT * FROM restricted.raw_grants WHERE tenant = :tenant AND run_id = :run ORDER BY requested_at")
                .param("tenant", tenant)
                .param("run", runId)
                .query(RawGrants::grant)
                .list();
    }

    /**
     * Reads bytes of one stream through a grant and records the use.
     *
     * @param use    what the bytes are for, recorded in the audit event: {@code hexdump}, {@code audit-view} or {@code download}
     * @param offset the first byte
     * @param length how many bytes at most; {@code Integer.MAX_VALUE} for the rest of the stream
     */
    @Transactional
    public RawSlice open(UUID grantId, Collection<String> tenants, String holder, String use, StreamName stream, long offset,
            int length, Instant now) {
        RawGrant grant = find(grantId, tenants).orElseThrow(() -> notFound(grantId));
        if (!grant.usableBy(holder, now)) {
            String status = grant.statusAt(now);
            throw status.equals("EXPIRED")
                    ? new GrantRefused(GrantRefused.Reason.EXPIRED, "This grant expired at " + grant.expiresAt() + "; ask again.")
                    : new GrantRefused(GrantRefused.Reason.NOT_USABLE, grant.requester().equals(holder)
                            ? "This grant is " + status.toLowerCase() + "."
                            : "This grant belongs to " + grant.requester() + ".");
        }
        String column = stream == StreamName.STDOUT ? "stdout" : "stderr";
        int from = (int) Math.clamp(offset, 0, Integer.MAX_VALUE - 1);
        record Read(byte[] bytes, long total, String expected, String actual, boolean purged) {
        }
        Read read = jdbc.sql("SELECT substring(a." + column + " FROM :from FOR :length), length(a." + column + "), a.sha256, "
                        + STORED_DIGEST + ", a.purged_at IS NOT NULL FROM restricted.raw_artifacts a WHERE a.run_id = :run")
                .param("from", from + 1)
                .param("length", length)
                .param("run", grant.runId())
                .query((rs, n) -> new Read(rs.getBytes(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getBoolean(5)))
                .single();
        if (read.purged()) {
            throw new GrantRefused(GrantRefused.Reason.PURGED, "The raw bytes of run " + grant.runId() + " were purged.");
        }
        audit.append(grant.tenant(), "raw.grant.used", grant.runId(), "human:" + holder, Map.of("grant", grantId.toString(),
                "use", use, "stream", stream.key(), "offset", Integer.toString(from), "bytes", Integer.toString(read.bytes().length)),
                now);
        RawSlice slice = new RawSlice(grant.runId(), stream, from, read.bytes(), read.total(), read.expected(), read.actual());
        if (!slice.digestMatches()) {
            log.error("Raw artifact of run {} (tenant {}) does not match its recorded digest: recorded {}, stored bytes hash to {}",
                    grant.runId(), grant.tenant(), read.expected(), read.actual());
            audit.append(grant.tenant(), "raw.digest.mismatch", grant.runId(), "airlock",
                    Map.of("recorded", read.expected(), "actual", read.actual()), now);
        }
        return slice;
    }

    private static GrantRefused notFound(UUID grantId) {
        return new GrantRefused(GrantRefused.Reason.NOT_FOUND, "No grant " + grantId + " in your tenants.");
    }

    private static RawGrant grant(ResultSet rs, int n) throws SQLException {
        return new RawGrant(rs.getObject("id", UUID.class), rs.getString("tenant"), rs.getObject("run_id", UUID.class),
                rs.getString("requester"), rs.getString("reason"), rs.getString("status"), rs.getString("decided_by"),
                rs.getString("decision_reason"), rs.getTimestamp("requested_at").toInstant(), instant(rs, "decided_at"),
                rs.getTimestamp("expires_at").toInstant());
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
