package dev.airlock.approval.request;

import dev.airlock.persistence.approval.ApprovalDecision;
import dev.airlock.persistence.approval.ApprovalRequest;
import dev.airlock.persistence.approval.ApprovalStatus;
import dev.airlock.persistence.approval.Verdict;
import java.time.Instant;
import java.util.Collection;
import org.jspecify.annotations.Nullable;

/**
 * When a decision counts and when it closes its request: the request must be pending and not
 * expired, the decision must name the digest of the action as it is, the owner of the requesting
 * agent may not decide, nobody decides twice (by name or by identity), a denial (and, where the tool's policy says so, an
 * approval) needs a reason, one denial denies, and the request is approved once as many distinct
 * people approved as the policy requires.
 */
public final class DecisionRules {

    private DecisionRules() {}

    /**
     * Records one human's decision on {@code request} and returns it; the request's status moves when
     * the decision completes it.
     *
     * @param earlier the decisions already recorded on this request
     * @throws DecisionRefused when the request is closed or expired, the digest is not the
     *                         request's, the approver already decided, or a DENY has no reason
     */
    public static ApprovalDecision decide(
            ApprovalRequest request,
            Approver approver,
            Verdict verdict,
            @Nullable String reason,
            @Nullable String seenDigest,
            Collection<ApprovalDecision> earlier,
            Instant now) {
        if (request.status() != ApprovalStatus.PENDING) {
            throw new DecisionRefused(
                    DecisionRefused.Reason.NOT_PENDING,
                    request.status() == ApprovalStatus.CANCELLED
                            ? "The request is closed: the agent cancelled the run before it was decided."
                            : "The request is already " + request.status() + ".");
        }
        if (!now.isBefore(request.expiresAt())) {
            throw new DecisionRefused(
                    DecisionRefused.Reason.EXPIRED, "The request expired at " + request.expiresAt() + ".");
        }
        if (!dev.airlock.kernel.digest.Sha256.hex(request.action()).equals(request.digest())) {
            // Written by a side that is not Airlock's own code (the database refuses such a row too).
            throw new DecisionRefused(
                    DecisionRefused.Reason.DIGEST_MISMATCH,
                    "The request's action does not hash to its digest: what it shows is not what a decision"
                            + " would approve. Nobody can decide on it.");
        }
        if (!request.digest().equals(seenDigest)) {
            // Never name the current digest: a careless caller would resend it without looking again.
            throw new DecisionRefused(
                    DecisionRefused.Reason.DIGEST_MISMATCH,
                    "The action changed since you reviewed it (or the digest you sent is not the one shown): "
                            + "review the action again before deciding.");
        }
        if (!FourEyes.isSecondPerson(approver.name(), request.requester())) {
            throw new DecisionRefused(
                    DecisionRefused.Reason.SELF_APPROVAL,
                    approver.name() + " owns the agent that requested this run and cannot decide on it.");
        }
        // By name or by identity: one person signing in under two names (a renamed OpenID Connect
        // account) must not count twice, nor two sign-ins sharing a name as two people.
        if (earlier.stream()
                .anyMatch(d -> FourEyes.samePerson(
                        approver.name(), approver.identity(), d.approver(), d.approverIdentity()))) {
            throw new DecisionRefused(
                    DecisionRefused.Reason.ALREADY_DECIDED, approver.name() + " has already decided on this run.");
        }
        if ((verdict == Verdict.DENY || request.approveReasonRequired()) && Reasons.isEmpty(reason)) {
            throw new DecisionRefused(
                    DecisionRefused.Reason.REASON_REQUIRED,
                    verdict == Verdict.DENY
                            ? "A denial needs a reason."
                            : "This tool's policy needs a reason to approve.");
        }
        ApprovalDecision decision = new ApprovalDecision(
                request.runId(),
                approver.name(),
                approver.identity(),
                verdict,
                reason == null ? null : reason.strip(),
                request.digest(),
                now);
        if (verdict == Verdict.DENY) {
            request.close(ApprovalStatus.DENIED, now);
        } else if (earlier.stream().filter(d -> d.decision() == Verdict.APPROVE).count() + 1
                >= request.approversRequired()) {
            request.close(ApprovalStatus.APPROVED, now);
        }
        return decision;
    }
}
