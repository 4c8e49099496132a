package dev.airlock.persistence.approval;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.DynamicUpdate;
import org.jspecify.annotations.Nullable;

/**
 * A run waiting for humans: the exact action they are asked to authorize (a canonical text and
 * its SHA-256), how many distinct approvers it needs and until when. Its status changes only
 * through {@link #close} (a decision completed it), {@link #expire} and {@link #cancel}; one DENY
 * ends it, and a quorum of distinct APPROVE decisions on the current digest approves it (the rules
 * are the approval service's {@code DecisionRules}).
 */
@Entity
@Table(name = "approval_requests", schema = "airlock")
@DynamicUpdate
public class ApprovalRequest {

    @Id
    @Column(name = "run_id")
    private UUID runId;

    @Column(nullable = false, updatable = false)
    private String tenant;

    @Column(nullable = false, updatable = false)
    private String tool;

    @Column(nullable = false, updatable = false)
    private String agent;

    @Column(name = "policy_rule", updatable = false)
    private @Nullable String policyRule;

    @Column(name = "agent_reason", updatable = false)
    private @Nullable String agentReason;

    /** The person who owns the requesting agent, if the configuration names one. */
    @Column(updatable = false)
    private @Nullable String requester;

    @Column(nullable = false, updatable = false)
    private String action;

    @Column(nullable = false, updatable = false)
    private String digest;

    @Column(name = "approvers_required", nullable = false, updatable = false)
    private int approversRequired;

    @Column(name = "approve_reason_required", nullable = false, updatable = false)
    private boolean approveReasonRequired;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private ApprovalStatus status;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "expires_at", nullable = false, updatable = false)
    private Instant expiresAt;

    @Column(name = "notify_group")
    private @Nullable String notifyGroup;

    @Column(name = "closed_at")
    private @Nullable Instant closedAt;

    @Version
    private long version;

    protected ApprovalRequest() {}

    /**
     * A new pending request.
     *
     * @param action  the canonical rendering of the exact action
     * @param digest  SHA-256 of {@code action}, lower-case hex
     */
    public ApprovalRequest(
            UUID runId,
            String tenant,
            String tool,
            String agent,
            @Nullable String requester,
            String action,
            String digest,
            int approversRequired,
            boolean approveReasonRequired,
            Instant createdAt,
            Instant expiresAt) {
        if (approversRequired < 1) {
            throw new IllegalArgumentException("approvers must be at least 1");
        }
        this.runId = runId;
        this.tenant = tenant;
        this.tool = tool;
        this.agent = agent;
        this.requester = requester;
        this.action = action;
        this.digest = digest;
        this.approversRequired = approversRequired;
        this.approveReasonRequired = approveReasonRequired;
        this.status = ApprovalStatus.PENDING;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
    }

    /**
     * Records, on a request not yet stored, the policy rule that asked for it and the agent's own
     * words on why it wants the run (untrusted, already sanitized and bounded).
     */
    public ApprovalRequest because(String policyRule, @Nullable String agentReason) {
        this.policyRule = policyRule;
        this.agentReason = agentReason;
        return this;
    }

    /**
     * Records, on a request not yet stored, the approver group its tool or deciding rule names to
     * tell of it; null leaves the routing to the people's configuration.
     */
    public ApprovalRequest notifying(@Nullable String group) {
        this.notifyGroup = group;
        return this;
    }

    /** The approver group to tell of the request, or null. */
    public @Nullable String notifyGroup() {
        return notifyGroup;
    }

    /** The policy rule that asked for people's decision; null for requests opened before rules existed. */
    public @Nullable String policyRule() {
        return policyRule;
    }

    /** The agent's own words on why it wants the run (untrusted data), or null. */
    public @Nullable String agentReason() {
        return agentReason;
    }

    /** Expires a pending request whose time is up; false if it is not due. */
    public boolean expire(Instant now) {
        if (status != ApprovalStatus.PENDING || now.isBefore(expiresAt)) {
            return false;
        }
        close(ApprovalStatus.EXPIRED, now);
        return true;
    }

    /** Closes a pending request because its run was cancelled; false if it was no longer pending. */
    public boolean cancel(Instant now) {
        if (status != ApprovalStatus.PENDING) {
            return false;
        }
        close(ApprovalStatus.CANCELLED, now);
        return true;
    }

    /**
     * Closes a pending request with {@code outcome}; the rules that decide when (quorum, reasons,
     * self-approval) are approval-service's.
     *
     * @throws IllegalStateException when it is not pending
     */
    public void close(ApprovalStatus outcome, Instant now) {
        if (status != ApprovalStatus.PENDING) {
            throw new IllegalStateException("the request of run " + runId + " is already " + status);
        }
        status = outcome;
        closedAt = now;
    }

    public UUID runId() {
        return runId;
    }

    public String tenant() {
        return tenant;
    }

    public String tool() {
        return tool;
    }

    public String agent() {
        return agent;
    }

    public @Nullable String requester() {
        return requester;
    }

    public String action() {
        return action;
    }

    public String digest() {
        return digest;
    }

    public int approversRequired() {
        return approversRequired;
    }

    public boolean approveReasonRequired() {
        return approveReasonRequired;
    }

    public ApprovalStatus status() {
        return status;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant expiresAt() {
        return expiresAt;
    }

    public @Nullable Instant closedAt() {
        return closedAt;
    }
}
