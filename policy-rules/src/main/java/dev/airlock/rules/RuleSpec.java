package dev.airlock.rules;

import dev.airlock.kernel.config.ApprovalMode;
import dev.airlock.kernel.config.ReasonPolicy;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One policy rule of a tool as configured: when its CEL expression holds, its settings decide (each
 * unset one is the tool's own).
 *
 * @param when            a CEL expression over {@code args}, {@code agent}, {@code tenant}, {@code tool} and {@code now}
 * @param approval        auto, required or deny
 * @param approvers       distinct approvals needed
 * @param reason          whether approving needs a reason
 * @param approvalTimeout how long the approval request waits
 * @param notifyGroup     the approver group to tell of the request
 */
public record RuleSpec(
        String when,
        @Nullable ApprovalMode approval,
        @Nullable Integer approvers,
        @Nullable ReasonPolicy reason,
        @Nullable Duration approvalTimeout,
        @Nullable String notifyGroup) {

    /** A rule that names no group to notify. */
    public RuleSpec(
            String when,
            @Nullable ApprovalMode approval,
            @Nullable Integer approvers,
            @Nullable ReasonPolicy reason,
            @Nullable Duration approvalTimeout) {
        this(when, approval, approvers, reason, approvalTimeout, null);
    }
}
