package dev.airlock.persistence.run;

/**
 * Where a run is in its life. {@code FAILED} means Airlock could not run it (spawn failure); a
 * non-zero exit is {@code COMPLETED} with its exit code.
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
    EXPIRED;

    /** Whether the run can no longer change. */
    public boolean isTerminal() {
        return switch (this) {
            case COMPLETED, FAILED, TIMED_OUT, CANCELLED, DENIED, EXPIRED -> true;
            default -> false;
        };
    }
}
