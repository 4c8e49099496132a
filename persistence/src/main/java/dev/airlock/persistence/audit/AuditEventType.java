package dev.airlock.persistence.audit;

/**
 * Every kind of event the audit log records, with the name stored in {@code audit_events.type}
 * (and shown to auditors). New kinds are added here, so that the list of what can be in a
 * tenant's log is in one place.
 */
public enum AuditEventType {

    /** An agent asked for a run; details: tool, request digest, the state policy put it in. */
    RUN_REQUESTED("run.requested"),
    /** Its process started; details: tool, sandbox. */
    RUN_STARTED("run.started"),
    /** Its process ended; details: termination, exit code, stream digests and sizes. */
    RUN_FINISHED("run.finished"),
    /** It could not be started; details: why. */
    RUN_FAILED("run.failed"),
    /** The agent cancelled it before it started. */
    RUN_CANCELLED("run.cancelled"),
    /** The replica running it was lost; details: node, when its lease ran out. */
    RUN_INTERRUPTED("run.interrupted"),
    /** Policy parked the run for people; details: digest, approvers, expiry. */
    APPROVAL_REQUESTED("approval.requested"),
    /** A person decided; details: decision, digest, reason, resulting status. */
    APPROVAL_DECIDED("approval.decided"),
    /** No decision came in time. */
    APPROVAL_EXPIRED("approval.expired"),
    /** The agent cancelled the run while its request was open. */
    APPROVAL_CANCELLED("approval.cancelled"),
    /** Someone asked for access to a run's raw bytes. */
    RAW_GRANT_REQUESTED("raw.grant.requested"),
    /** Such a request was granted or refused. */
    RAW_GRANT_DECIDED("raw.grant.decided"),
    /** Raw bytes were read through a grant. */
    RAW_GRANT_USED("raw.grant.used"),
    /** Stored raw bytes no longer match their recorded digest. */
    RAW_DIGEST_MISMATCH("raw.digest.mismatch"),
    /** A legal hold was placed on a run. */
    LEGAL_HOLD_PLACED("legal-hold.placed"),
    /** A legal hold was released. */
    LEGAL_HOLD_RELEASED("legal-hold.released"),
    /** Retention purged records; details: counts, and where the chain now starts. */
    RETENTION_PURGED("retention.purged"),
    /** The tenant's configuration changed since the last start. */
    CONFIG_CHANGED("config.changed"),
    /** Sign-in was locked out for a user name or an address. */
    LOGIN_LOCKED("login.locked"),
    /** An auditor exported an evidence bundle; details: scope, runs, raw artifacts included, manifest digest, key. */
    EVIDENCE_EXPORTED("evidence.exported"),
    /** A tool of an upstream MCP server's first listing was pinned; details: server, tool, sha256. */
    MCP_TOOL_PINNED("mcp.tool.pinned"),
    /** An upstream MCP server listed a changed or new tool, held until approved; details: server, tool, sha256. */
    MCP_TOOL_CHANGED("mcp.tool.changed"),
    /** A tenant administrator approved a changed or new upstream tool; details: server, tool, sha256. */
    MCP_TOOL_APPROVED("mcp.tool.approved"),
    /** A tenant administrator rejected a changed or new upstream tool; details: server, tool, sha256. */
    MCP_TOOL_REJECTED("mcp.tool.rejected");

    private final String key;

    AuditEventType(String key) {
        this.key = key;
    }

    /** The stored name, such as {@code run.requested}. */
    public String key() {
        return key;
    }

    @Override
    public String toString() {
        return key;
    }
}
