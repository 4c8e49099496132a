package dev.airlock.kernel.config;

/** What a tool's policy says about running it. */
public enum ApprovalMode {
    /** Runs without a human decision. */
    AUTO,
    /** Waits for human approval. */
    REQUIRED,
    /** Never runs. */
    DENY
}
