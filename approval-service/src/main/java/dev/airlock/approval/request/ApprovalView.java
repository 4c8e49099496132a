package dev.airlock.approval.request;

import dev.airlock.persistence.approval.ApprovalDecision;
import dev.airlock.persistence.approval.ApprovalRequest;
import dev.airlock.persistence.approval.ApprovalStatus;
import dev.airlock.persistence.approval.Verdict;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A request with the decisions recorded on it so far, as web layers, templates and reports see
 * it: values only, never the entities behind them.
 *
 * @param request   the request
 * @param decisions its decisions, oldest first
 */
public record ApprovalView(Request request, List<Decision> decisions) {

    static ApprovalView of(ApprovalRequest request, List<ApprovalDecision> decisions) {
        return new ApprovalView(
                Request.of(request), decisions.stream().map(Decision::of).toList());
    }

    /**
     * One approval request.
     *
     * @param runId                 the run it would authorize
     * @param tenant                the run's tenant
     * @param tool                  the tool
     * @param agent                 the requesting agent
     * @param requester             the person owning the requesting agent, or null
     * @param action                the canonical action people authorize, as rendered
     * @param digest                SHA-256 of {@code action}, which a decision must name
     * @param approversRequired     distinct approvals needed
     * @param approveReasonRequired whether an approval needs a reason (a denial always does)
     * @param status                PENDING, APPROVED, DENIED, EXPIRED or CANCELLED
     * @param createdAt             when it was opened
     * @param expiresAt             when it expires
     * @param closedAt              when it closed, or null while pending
     * @param policyRule            the policy rule that asked for people ({@code rule 2: …}); null for older requests
     * @param agentReason           the agent's own words on why it asks: untrusted data, never a reason to decide; or null
     */
    public record Request(
            UUID runId,
            String tenant,
            String tool,
            String agent,
            @Nullable String requester,
            String action,
            String digest,
            int approversRequired,
            boolean approveReasonRequired,
            ApprovalStatus status,
            Instant createdAt,
            Instant expiresAt,
            @Nullable Instant closedAt,
            @Nullable String policyRule,
            @Nullable String agentReason) {

        static Request of(ApprovalRequest r) {
            return new Request(
                    r.runId(),
                    r.tenant(),
                    r.tool(),
                    r.agent(),
                    r.requester(),
                    r.action(),
                    r.digest(),
                    r.approversRequired(),
                    r.approveReasonRequired(),
                    r.status(),
                    r.createdAt(),
                    r.expiresAt(),
                    r.closedAt(),
                    r.policyRule(),
                    r.agentReason());
        }

        /** The action, one item per line, as the console and the approver API show it. */
        public List<String> actionLines() {
            return action.lines().toList();
        }
    }

    /**
     * One person's decision.
     *
     * @param approver  who decided
     * @param approverIdentity their stable identity ({@code password:<user>} or
     *                  {@code oidc:<registration>:<subject>}), or null on a decision recorded before
     *                  identities were
     * @param decision  APPROVE or DENY
     * @param reason    the reason given, or null
     * @param digest    the action digest the decision named
     * @param decidedAt when
     */
    public record Decision(
            String approver,
            @Nullable String approverIdentity,
            Verdict decision,
            @Nullable String reason,
            String digest,
            Instant decidedAt) {

        static Decision of(ApprovalDecision d) {
            return new Decision(
                    d.approver(), d.approverIdentity(), d.decision(), d.reason(), d.digest(), d.decidedAt());
        }

        /** Whether this is the person's decision, by name or by identity (as the decision rules count). */
        public boolean isBy(String name, String identity) {
            return FourEyes.samePerson(name, identity, approver, approverIdentity);
        }
    }
}
