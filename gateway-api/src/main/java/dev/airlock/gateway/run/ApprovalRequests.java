package dev.airlock.gateway.run;

import dev.airlock.persistence.approval.ApprovalRequest;
import dev.airlock.persistence.approval.ApprovalRequestRepository;
import dev.airlock.persistence.approval.ApprovalStatus;
import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.event.ApprovalClosed;
import dev.airlock.persistence.event.ApprovalOpened;
import dev.airlock.rules.ToolPolicy;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The agent side's part in approvals, through the database only: it opens the request of a run
 * that policy parked, closes the pending request of a run its agent cancels, and checks before
 * executing that the run's request was approved for exactly this action. Decisions, expiry and
 * everything else people do belong to the human side ({@code ApprovalService}), which the agent
 * side never calls; the database role {@code airlock_gateway} could not record them anyway.
 */
@Component
class ApprovalRequests {

    private final ApprovalRequestRepository requests;
    private final AuditLog audit;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    private final dev.airlock.persistence.database.DatabaseTime databaseTime;

    ApprovalRequests(
            ApprovalRequestRepository requests,
            AuditLog audit,
            ApplicationEventPublisher events,
            Clock clock,
            dev.airlock.persistence.database.DatabaseTime databaseTime) {
        this.databaseTime = databaseTime;
        this.requests = requests;
        this.audit = audit;
        this.events = events;
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
    void open(
            UUID runId,
            String tenant,
            String tool,
            String agent,
            @Nullable String requester,
            String action,
            String digest,
            ToolPolicy policy,
            String rule,
            @Nullable String agentReason) {
        Instant now = clock.instant();
        // Counted from the earlier of this replica's clock and the database's: a replica whose clock runs
        // ahead does not give people longer than the policy says, by the clock every replica shares.
        Instant expiresAt = databaseTime.earlierOf(now).plus(policy.approvalTimeout());
        audit.append(
                tenant,
                AuditEventType.APPROVAL_REQUESTED,
                runId,
                "airlock",
                Map.of(
                        "digest",
                        digest,
                        "approvers",
                        Integer.toString(policy.approvers()),
                        "expiresAt",
                        expiresAt.toString(),
                        "rule",
                        rule),
                now);
        requests.save(new ApprovalRequest(
                        runId,
                        tenant,
                        tool,
                        agent,
                        requester,
                        action,
                        digest,
                        policy.approvers(),
                        policy.approveReasonRequired(),
                        now,
                        expiresAt)
                .because(rule, agentReason)
                .notifying(policy.notifyGroup()));
        events.publishEvent(new ApprovalOpened(runId, tenant, tool, agent, digest, expiresAt));
    }

    /**
     * Closes the pending request of a run the agent cancelled before it started, in the caller's
     * transaction. The row lock orders it with decisions: a decision that got there first wins
     * (the run is then cancelled as a started run), a later one finds the request closed.
     *
     * @return whether a pending request was closed
     */
    @Transactional(propagation = Propagation.MANDATORY)
    boolean cancel(UUID runId, String tenant, String actor) {
        return requests.lockForDecision(runId, List.of(tenant))
                .filter(r -> r.cancel(clock.instant()))
                .map(request -> {
                    requests.save(request);
                    audit.append(
                            tenant,
                            AuditEventType.APPROVAL_CANCELLED,
                            runId,
                            actor,
                            Map.of("digest", request.digest()),
                            Objects.requireNonNull(request.closedAt(), "a cancelled request is closed"));
                    // Told like a decision: the approvers' channels and the webhooks hear that it is closed.
                    events.publishEvent(new ApprovalClosed(
                            runId, tenant, request.tool(), request.digest(), ApprovalStatus.CANCELLED));
                    return true;
                })
                .orElse(false);
    }

    /** The run's approval request, if it has one (read in the run's tenant only). */
    java.util.Optional<ApprovalRequest> of(UUID runId, String tenant) {
        return requests.findByRunIdAndTenantIn(runId, List.of(tenant));
    }

    /** Whether {@code request} is closed as APPROVED for exactly {@code digest}. */
    static boolean approves(ApprovalRequest request, String digest) {
        return request.status() == ApprovalStatus.APPROVED && request.digest().equals(digest);
    }
}
