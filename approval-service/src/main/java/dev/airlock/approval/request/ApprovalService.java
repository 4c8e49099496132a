package dev.airlock.approval.request;

import dev.airlock.approval.policy.ToolPolicy;
import dev.airlock.persistence.approval.ApprovalDecision;
import dev.airlock.persistence.approval.ApprovalDecisionRepository;
import dev.airlock.persistence.approval.ApprovalRequest;
import dev.airlock.persistence.approval.ApprovalRequestRepository;
import dev.airlock.persistence.approval.ApprovalStatus;
import dev.airlock.persistence.approval.Verdict;
import dev.airlock.persistence.audit.AuditLog;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Opens approval requests and records decisions on them. A decision takes a row lock on its
 * request, so concurrent decisions on one run are applied one after the other; every outcome
 * is published as {@link ApprovalClosed} inside the same transaction.
 */
@Service
public class ApprovalService {

    private final ApprovalRequestRepository requests;
    private final ApprovalDecisionRepository decisions;
    private final ApplicationEventPublisher events;
    private final AuditLog audit;
    private final Clock clock;

    ApprovalService(ApprovalRequestRepository requests, ApprovalDecisionRepository decisions,
            ApplicationEventPublisher events, AuditLog audit, Clock clock) {
        this.requests = requests;
        this.decisions = decisions;
        this.events = events;
        this.audit = audit;
        this.clock = clock;
    }

    /**
     * Opens the request for a run that policy parked, in the caller's transaction.
     *
     * @param requester the person owning the requesting agent, or null
     * @param action    the canonical rendering of the exact action
     * @param digest    its SHA-256
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public ApprovalRequest open(UUID runId, String tenant, String tool, String agent, String requester, String action,
            String digest, ToolPolicy policy) {
        var now = clock.instant();
        audit.append(tenant, "approval.requested", runId, "airlock", java.util.Map.of("digest", digest,
                "approvers", Integer.toString(policy.approvers()), "expiresAt", now.plus(policy.approvalTimeout()).toString()), now);
        ApprovalRequest request = requests.save(new ApprovalRequest(runId, tenant, tool, agent, requester, action, digest,
                policy.approvers(), policy.approveReasonRequired(), now, now.plus(policy.approvalTimeout())));
        events.publishEvent(new ApprovalOpened(runId, tenant, tool, agent, digest, request.expiresAt()));
        return request;
    }

    /**
     * Records {@code approver}'s decision on the run's request.
     *
     * @throws NotAnApprover when the approver has no APPROVER role in the run's tenant (or the
     *                       run has no request): indistinguishable from a missing request
     * @throws dev.airlock.persistence.approval.DecisionRefused when the request cannot take it
     */
    @Transactional
    public ApprovalView decide(Approver approver, UUID runId, Verdict verdict, String reason, String digest) {
        ApprovalRequest request = requests.lockForDecision(runId, approver.tenants())
                .orElseThrow(() -> new NotAnApprover(runId));
        List<ApprovalDecision> earlier = decisions.findByRunIdOrderByDecidedAtAsc(runId);
        ApprovalDecision decision = request.decide(approver.name(), verdict, reason, digest, earlier, clock.instant());
        decisions.save(decision);
        requests.save(request);
        java.util.Map<String, String> details = new java.util.TreeMap<>(java.util.Map.of("decision", verdict.name(),
                "digest", digest, "status", request.status().name()));
        if (decision.reason() != null) {
            details.put("reason", decision.reason());
        }
        audit.append(request.tenant(), "approval.decided", runId, "human:" + approver.name(), details, decision.decidedAt());
        if (request.status() != ApprovalStatus.PENDING) {
            events.publishEvent(new ApprovalClosed(runId, request.tenant(), request.tool(), request.digest(), request.status()));
        }
        List<ApprovalDecision> all = new ArrayList<>(earlier);
        all.add(decision);
        return new ApprovalView(request, List.copyOf(all));
    }

    /** The advisory lock that lets one replica at a time run the expiry job. */
    static final long EXPIRY_LOCK = 0x41495252_45585052L;

    /** Expires every request whose time is up; returns how many (0 when another replica is at it). */
    @Transactional
    public int expireDue() {
        if (!requests.tryAdvisoryLock(EXPIRY_LOCK)) {
            return 0;
        }
        int expired = 0;
        for (UUID runId : requests.findDue(clock.instant())) {
            ApprovalRequest request = requests.findById(runId).orElseThrow();
            if (request.expire(clock.instant())) {
                requests.save(request);
                audit.append(request.tenant(), "approval.expired", runId, "airlock", java.util.Map.of("digest", request.digest()),
                        clock.instant());
                events.publishEvent(new ApprovalClosed(runId, request.tenant(), request.tool(), request.digest(),
                        ApprovalStatus.EXPIRED));
                expired++;
            }
        }
        return expired;
    }

    /** The request of a run in one of {@code tenants}, with its decisions. */
    @Transactional(readOnly = true)
    public Optional<ApprovalView> find(UUID runId, Collection<String> tenants) {
        return requests.findByRunIdAndTenantIn(runId, tenants)
                .map(r -> new ApprovalView(r, decisions.findByRunIdOrderByDecidedAtAsc(runId)));
    }

    /** The decisions on a run, oldest first (the caller has resolved the run in its tenant). */
    @Transactional(readOnly = true)
    public List<ApprovalDecision> decisions(UUID runId) {
        return decisions.findByRunIdOrderByDecidedAtAsc(runId);
    }

    /** Requests in {@code tenants}, newest first: pending only, or all. */
    @Transactional(readOnly = true)
    public List<ApprovalRequest> list(Collection<String> tenants, boolean pendingOnly) {
        if (tenants.isEmpty()) {
            return List.of();
        }
        return pendingOnly
                ? requests.findByTenantInAndStatusOrderByCreatedAtDesc(tenants, ApprovalStatus.PENDING)
                : requests.findByTenantInOrderByCreatedAtDesc(tenants);
    }
}
