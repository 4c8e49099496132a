package dev.airlock.persistence.approval;

/** What one human decided. */
public enum Verdict {
    APPROVE,
    DENY
}
