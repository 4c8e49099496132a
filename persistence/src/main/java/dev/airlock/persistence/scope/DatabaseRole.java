package dev.airlock.persistence.scope;

/** The two roles the application works as; migrations create them and grant what each may do. */
public enum DatabaseRole {

    /** The agent side: runs, their streams, transcripts and raw artifacts, and opening approval requests. */
    GATEWAY("airlock_gateway"),

    /** The human side: decisions, grants, holds, tokens, sign-in, retention; reads runs and transcripts. */
    CONSOLE("airlock_console");

    private final String roleName;

    DatabaseRole(String roleName) {
        this.roleName = roleName;
    }

    /** The PostgreSQL role's name. */
    public String roleName() {
        return roleName;
    }
}
