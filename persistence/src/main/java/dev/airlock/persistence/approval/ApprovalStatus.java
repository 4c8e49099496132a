package dev.airlock.persistence.approval;

/** Where an approval request stands. */
public enum ApprovalStatus {
    PENDING,
    APPROVED,
    DENIED,
    EXPIRED
}
