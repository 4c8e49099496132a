package dev.airlock.persistence.run;

/** What a run's action is. */
public enum ActionKind {
    /** A process, started in the sandbox. */
    PROCESS,
    /** One HTTP request to an upstream API (an HTTP tool). */
    HTTP,
    /** A call to a tool of an upstream MCP server. */
    MCP
}
