package dev.airlock.approval.people;

/** What a person may do in a tenant. */
public enum Role {
    /** Decides on approval requests. */
    APPROVER,
    /** Reads runs, decisions and (through grants) raw artifacts. */
    AUDITOR,
    /** Administers the tenant. */
    TENANT_ADMIN
}
