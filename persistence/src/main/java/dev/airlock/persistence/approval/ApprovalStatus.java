package dev.airlock.persistence.approval;

/** Where an approval request stands; every status but PENDING is final. */
public enum ApprovalStatus {
    PENDING,
    APPROVED,
    DENIED,
    EXPIRED,
    /** The agent cancelled the run before anyone decided. */
    CANCELLED
}
