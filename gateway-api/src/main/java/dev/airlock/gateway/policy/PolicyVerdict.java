package dev.airlock.gateway.policy;

import java.time.Instant;

/** The outcome of evaluating a tool policy for a new run. */
public sealed interface PolicyVerdict {

    /** The run may execute now. */
    record Auto() implements PolicyVerdict {}

    /**
     * The run waits for humans.
     *
     * @param approvers distinct approvals needed
     * @param expiresAt when the request expires without them
     */
    record Required(int approvers, Instant expiresAt) implements PolicyVerdict {}

    /** The run is refused. */
    record Deny() implements PolicyVerdict {}
}
