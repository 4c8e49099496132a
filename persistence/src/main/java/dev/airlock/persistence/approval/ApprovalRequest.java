package dev.airlock.persistence.approval;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;
import java.util.Collection;
import java.util.UUID;
import org.hibernate.annotations.DynamicUpdate;

/**
 * A run waiting for humans: the exact action they are asked to authorize (a canonical text and
 * its SHA-256), how many distinct approvers it needs and until when. Its status changes only
 * through {@link #decide}, {@link #expire} and {@link #cancel}; one DENY ends it, and a quorum
 * of distinct APPROVE decisions on the current digest approves it.
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

    /** The person who owns the requesting agent, if the configuration names one. */
    @Column(updatable = false)
    private String requester;

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

    @Column(name = "closed_at")
    private Instant closedAt;

    @Version
    private long version;

    protected ApprovalRequest() {
    }

    /**
     * A new pending request.
     *
     * @param action  the canonical rendering of the exact action
     * @param digest  SHA-256 of {@code action}, lower-case hex
     */
    public ApprovalRequest(UUID runId, String tenant, String tool, String agent, String requester, String action,
            String digest, int approversRequired, boolean approveReasonRequired, Instant createdAt, Instant expiresAt) {
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
     * Records one human's decision and returns it; the status moves when the decision completes
     * the request.
     *
     * @param earlier the decisions already recorded on this request
     * @throws DecisionRefused when the request is closed or expired, the digest is not the
     *                         request's, the approver already decided, or a DENY has no reason
     */
    public ApprovalDecision decide(String approver, Verdict verdict, String reason, String seenDigest,
            Collection<ApprovalDecision> earlier, Instant now) {
        if (status != ApprovalStatus.PENDING) {
            throw new DecisionRefused(DecisionRefused.Reason.NOT_PENDING, status == ApprovalStatus.CANCELLED
                    ? "The request is closed: the agent cancelled the run before it was decided."
                    : "The request is already " + status + ".");
        }
        if (!now.isBefore(expiresAt)) {
            throw new DecisionRefused(DecisionRefused.Reason.EXPIRED, "The request expired at " + expiresAt + ".");
        }
        if (!digest.equals(seenDigest)) {
            // Never name the current digest: a careless caller would resend it without looking again.
            throw new DecisionRefused(DecisionRefused.Reason.DIGEST_MISMATCH,
                    "The action changed since you reviewed it (or the digest you sent is not the one shown): "
                            + "review the action again before deciding.");
        }
        if (approver.equals(requester)) {
            throw new DecisionRefused(DecisionRefused.Reason.SELF_APPROVAL,
                    approver + " owns the agent that requested this run and cannot decide on it.");
        }
        if (earlier.stream().anyMatch(d -> d.approver().equals(approver))) {
            throw new DecisionRefused(DecisionRefused.Reason.ALREADY_DECIDED, approver + " has already decided on this run.");
        }
        if ((verdict == Verdict.DENY || approveReasonRequired) && Reasons.isEmpty(reason)) {
            throw new DecisionRefused(DecisionRefused.Reason.REASON_REQUIRED,
                    verdict == Verdict.DENY ? "A denial needs a reason." : "This tool's policy needs a reason to approve.");
        }
        ApprovalDecision decision = new ApprovalDecision(runId, approver, verdict, reason == null ? null : reason.strip(),
                digest, now);
        if (verdict == Verdict.DENY) {
            close(ApprovalStatus.DENIED, now);
        } else if (earlier.stream().filter(d -> d.decision() == Verdict.APPROVE).count() + 1 >= approversRequired) {
            close(ApprovalStatus.APPROVED, now);
        }
        return decision;
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

    private void close(ApprovalStatus outcome, Instant now) {
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

    public String requester() {
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

    public Instant closedAt() {
        return closedAt;
    }
}
