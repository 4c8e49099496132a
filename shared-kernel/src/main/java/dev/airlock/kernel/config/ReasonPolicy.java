package dev.airlock.kernel.config;

/** Whether a person approving a request must give a reason (denying always needs one). */
public enum ReasonPolicy {
    /** Approving needs a reason. */
    REQUIRED,
    /** Approving may go without a reason. */
    OPTIONAL
}
