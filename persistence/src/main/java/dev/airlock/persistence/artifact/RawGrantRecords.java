package dev.airlock.persistence.artifact;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The rows of {@code restricted.raw_grants}. The rules (who may ask, who may decide, expiry) are
 * the grant service's, in approval-service; this class only stores and finds.
 */
@Component
public class RawGrantRecords {

    private final JdbcClient jdbc;

    RawGrantRecords(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Stores a new grant (pending, or granted at once). */
    @Transactional(propagation = Propagation.MANDATORY)
    public void insert(RawGrant grant) {
        jdbc.sql("""
                INSERT INTO restricted.raw_grants (id, tenant, run_id, requester, requester_identity, reason, status,
                                                  requested_at, decided_at, expires_at)
                VALUES (:id, :tenant, :run, :requester, :identity, :reason, :status, :requestedAt, :decidedAt, :expiresAt)
                """)
                .param("id", grant.id())
                .param("tenant", grant.tenant())
                .param("run", grant.runId())
                .param("requester", grant.requester())
                .param("identity", grant.requesterIdentity())
                .param("reason", grant.reason())
                .param("status", grant.status().name())
                .param("requestedAt", Timestamp.from(grant.requestedAt()))
                .param("decidedAt", grant.decidedAt() == null ? null : Timestamp.from(grant.decidedAt()))
                .param("expiresAt", Timestamp.from(grant.expiresAt()))
                .update();
    }

    /** A grant of one of the tenants, locked until the transaction ends. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<RawGrant> lock(UUID grantId, Collection<String> tenants) {
        if (tenants.isEmpty()) {
            return Optional.empty();
        }
        return jdbc.sql("SELECT * FROM restricted.raw_grants WHERE id = :id AND tenant IN (:tenants) FOR UPDATE")
                .param("id", grantId)
                .param("tenants", tenants)
                .query(RawGrantRecords::grant)
                .optional();
    }

    /** Records a decision. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void decide(
            UUID grantId,
            GrantStatus status,
            String decider,
            String deciderIdentity,
            @Nullable String reason,
            Instant decidedAt,
            Instant expiresAt) {
        jdbc.sql("""
                UPDATE restricted.raw_grants SET status = :status, decided_by = :decider,
                       decided_by_identity = :deciderIdentity, decision_reason = :reason,
                       decided_at = :now, expires_at = :expiresAt WHERE id = :id
                """)
                .param("status", status.name())
                .param("decider", decider)
                .param("deciderIdentity", deciderIdentity)
                .param("reason", reason)
                .param("now", Timestamp.from(decidedAt))
                .param("expiresAt", Timestamp.from(expiresAt))
                .param("id", grantId)
                .update();
    }

    /** A grant of one of the tenants. */
    @Transactional(readOnly = true)
    public Optional<RawGrant> find(UUID grantId, Collection<String> tenants) {
        if (tenants.isEmpty()) {
            return Optional.empty();
        }
        return jdbc.sql("SELECT * FROM restricted.raw_grants WHERE id = :id AND tenant IN (:tenants)")
                .param("id", grantId)
                .param("tenants", tenants)
                .query(RawGrantRecords::grant)
                .optional();
    }

    /** The newest grants of the tenants, newest first. */
    @Transactional(readOnly = true)
    public List<RawGrant> recent(Collection<String> tenants, int limit) {
        if (tenants.isEmpty()) {
            return List.of();
        }
        return jdbc.sql(
                        "SELECT * FROM restricted.raw_grants WHERE tenant IN (:tenants) ORDER BY requested_at DESC LIMIT :limit")
                .param("tenants", tenants)
                .param("limit", limit)
                .query(RawGrantRecords::grant)
                .list();
    }

    /** The grants asked for on one run, oldest first. */
    @Transactional(readOnly = true)
    public List<RawGrant> forRun(String tenant, UUID runId) {
        return jdbc.sql(
                        "SELECT * FROM restricted.raw_grants WHERE tenant = :tenant AND run_id = :run ORDER BY requested_at")
                .param("tenant", tenant)
                .param("run", runId)
                .query(RawGrantRecords::grant)
                .list();
    }

    private static RawGrant grant(ResultSet rs, int n) throws SQLException {
        return new RawGrant(
                rs.getObject("id", UUID.class),
                rs.getString("tenant"),
                rs.getObject("run_id", UUID.class),
                rs.getString("requester"),
                rs.getString("requester_identity"),
                rs.getString("reason"),
                GrantStatus.valueOf(rs.getString("status")),
                rs.getString("decided_by"),
                rs.getString("decided_by_identity"),
                rs.getString("decision_reason"),
                rs.getTimestamp("requested_at").toInstant(),
                instant(rs, "decided_at"),
                rs.getTimestamp("expires_at").toInstant());
    }

    private static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
