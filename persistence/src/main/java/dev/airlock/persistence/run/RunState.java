package dev.airlock.persistence.run;

/**
 * Where a run is in its life. {@code FAILED} means Airlock could not run it (spawn failure); a
 * non-zero exit is {@code COMPLETED} with its exit code. {@code INTERRUPTED} means the replica
 * executing it died (its lease ran out): the outcome is unknown and the run is never executed again.
 */
public enum RunState {
    REQUESTED,
    PENDING_APPROVAL,
    APPROVED,
    RUNNING,
    COMPLETED,
    FAILED,
    TIMED_OUT,
    CANCELLED,
    DENIED,
    EXPIRED,
    /** The replica executing it stopped renewing its lease: outcome unknown, never executed again. */
    INTERRUPTED;

    /** Whether the run can no longer change. */
    public boolean isTerminal() {
        return switch (this) {
            case COMPLETED, FAILED, TIMED_OUT, CANCELLED, DENIED, EXPIRED, INTERRUPTED -> true;
            default -> false;
        };
    }
}
