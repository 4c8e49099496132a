package dev.airlock.persistence.approval;

import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** Approval requests, always looked up within tenants. */
// Declared query methods get no transaction of their own from Spring Data: this gives them one, so
// that every query runs in a transaction that carries the thread's database scope (role and tenants).
@org.springframework.transaction.annotation.Transactional(readOnly = true)
public interface ApprovalRequestRepository extends JpaRepository<ApprovalRequest, UUID> {

    Optional<ApprovalRequest> findByRunIdAndTenantIn(UUID runId, Collection<String> tenants);

    /** The request, row-locked for a decision: concurrent decisions on one run queue up here. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select a from ApprovalRequest a where a.runId = :runId and a.tenant in :tenants")
    Optional<ApprovalRequest> lockForDecision(@Param("runId") UUID runId, @Param("tenants") Collection<String> tenants);

    /**
     * Requests in {@code tenants} with one of {@code statuses} (of {@code tool} and {@code agent} where
     * not null) opened before the request ({@code beforeCreatedAt}, {@code beforeRunId}) (newest first,
     * the run id breaking ties), at most {@code limit} of them. The first bound on the time alone lets
     * the index on (tenant, created_at, run_id) start each page where the last ended.
     */
    @Query("select a from ApprovalRequest a where a.tenant in :tenants and a.status in :statuses"
            + " and (:tool is null or a.tool = :tool) and (:agent is null or a.agent = :agent)"
            + " and a.createdAt <= :beforeCreatedAt"
            + " and (a.createdAt < :beforeCreatedAt or (a.createdAt = :beforeCreatedAt and a.runId < :beforeRunId))"
            + " order by a.createdAt desc, a.runId desc")
    List<ApprovalRequest> pageBefore(
            @Param("tenants") Collection<String> tenants,
            @Param("statuses") Collection<ApprovalStatus> statuses,
            @Param("tool") @Nullable String tool,
            @Param("agent") @Nullable String agent,
            @Param("beforeCreatedAt") Instant beforeCreatedAt,
            @Param("beforeRunId") UUID beforeRunId,
            org.springframework.data.domain.Limit limit);

    /**
     * The JPQL condition of a pending request {@code person} (with {@code identity}) may decide: not
     * their agent's, not decided by them under either (names in any case; the decision itself is
     * checked by the four-eyes rule, which also folds compatibility forms).
     */
    String WAITING_FOR = "r.status = dev.airlock.persistence.approval.ApprovalStatus.PENDING and r.tenant in :tenants"
            + " and (r.requester is null or lower(r.requester) <> lower(:person)) and not exists (select 1 from"
            + " ApprovalDecision d where d.runId = r.runId and (lower(d.approver) = lower(:person)"
            + " or d.approverIdentity = :identity))";

    /**
     * The pending requests the person may decide in {@code tenants} (of {@code tool} and {@code agent}
     * where not null), the one that expires first first, at most {@code limit} of them.
     */
    @Query("select r from ApprovalRequest r where " + WAITING_FOR
            + " and (:tool is null or r.tool = :tool) and (:agent is null or r.agent = :agent)"
            + " order by r.expiresAt, r.runId")
    List<ApprovalRequest> waitingFor(
            @Param("tenants") Collection<String> tenants,
            @Param("person") String person,
            @Param("identity") String identity,
            @Param("tool") @Nullable String tool,
            @Param("agent") @Nullable String agent,
            org.springframework.data.domain.Limit limit);

    /** Which of {@code runIds} are pending requests the person may decide in {@code tenants}. */
    @Query("select r.runId from ApprovalRequest r where " + WAITING_FOR + " and r.runId in :runIds")
    List<UUID> waitingAmong(
            @Param("tenants") Collection<String> tenants,
            @Param("person") String person,
            @Param("identity") String identity,
            @Param("runIds") Collection<UUID> runIds);

    /** How many pending requests the person may decide in {@code tenants}. */
    @Query("select count(r) from ApprovalRequest r where " + WAITING_FOR)
    long countWaitingFor(
            @Param("tenants") Collection<String> tenants,
            @Param("person") String person,
            @Param("identity") String identity);

    /** The last request of the tool in the tenant that people approved, other than {@code runId}'s. */
    Optional<ApprovalRequest> findFirstByTenantAndToolAndStatusAndRunIdNotOrderByClosedAtDesc(
            String tenant, String tool, ApprovalStatus status, UUID runId);

    /** How many requests of {@code tenant} are in {@code status}. */
    long countByTenantAndStatus(String tenant, ApprovalStatus status);

    @Query("select a.runId from ApprovalRequest a where a.status = 'PENDING' and a.expiresAt <= :now")
    List<UUID> findDue(@Param("now") Instant now);

    /** The pending request, row-locked for expiry; empty when it is closed or another replica holds it. */
    @Query(
            value = "SELECT * FROM airlock.approval_requests WHERE run_id = :runId AND status = 'PENDING' "
                    + "FOR UPDATE SKIP LOCKED",
            nativeQuery = true)
    Optional<ApprovalRequest> lockDueForExpiry(@Param("runId") UUID runId);
}
