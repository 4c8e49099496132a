package dev.airlock.rules;

import dev.airlock.kernel.config.ApprovalMode;
import java.time.Duration;
import java.util.Objects;

/**
 * A tool's approval policy.
 *
 * @param mode                  auto, required or deny
 * @param approvers             distinct humans needed when approval is required (at least 1)
 * @param approvalTimeout       how long a request waits for its decisions before it expires
 * @param approveReasonRequired whether approving needs a reason too (denying always does)
 * @param notifyGroup           the approver group to tell of a request (docs/approvals.md#channels), or null for
 *                              the groups the people's configuration routes the tool to
 */
public record ToolPolicy(
        ApprovalMode mode,
        int approvers,
        Duration approvalTimeout,
        boolean approveReasonRequired,
        @org.jspecify.annotations.Nullable String notifyGroup) {

    /** A policy that names no group to notify. */
    public ToolPolicy(ApprovalMode mode, int approvers, Duration approvalTimeout, boolean approveReasonRequired) {
        this(mode, approvers, approvalTimeout, approveReasonRequired, null);
    }

    /** The timeout used when a policy names none. */
    public static final Duration DEFAULT_APPROVAL_TIMEOUT = Duration.ofHours(1);

    /** Validates the policy. */
    public ToolPolicy {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(approvalTimeout, "approvalTimeout");
        if (approvers < 1) {
            throw new IllegalArgumentException("approvers must be at least 1, was " + approvers);
        }
        if (approvalTimeout.isNegative() || approvalTimeout.isZero()) {
            throw new IllegalArgumentException("approval-timeout must be positive, was " + approvalTimeout);
        }
        if (notifyGroup != null && !notifyGroup.matches("[a-z0-9][a-z0-9_-]{0,62}")) {
            throw new IllegalArgumentException("notify must name an approver group (a-z, 0-9, '_', '-')");
        }
    }

    /** A policy of the given mode with one approver and the default timeout. */
    public static ToolPolicy of(ApprovalMode mode) {
        return new ToolPolicy(mode, 1, DEFAULT_APPROVAL_TIMEOUT, false);
    }
}
