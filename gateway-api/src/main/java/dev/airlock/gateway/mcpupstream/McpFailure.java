package dev.airlock.gateway.mcpupstream;

import dev.airlock.persistence.run.Termination;

/**
 * A request to an upstream MCP server that got no answer: why ({@link #termination()}) and a
 * message naming no secret.
 */
final class McpFailure extends Exception {

    private static final long serialVersionUID = 1L;

    private final Termination termination;

    McpFailure(Termination termination, String message) {
        super(message, null, false, false);
        this.termination = termination;
    }

    /** TIMED_OUT, SERVER_DOWN, RESPONSE_LIMIT, CANCELLED or REFUSED. */
    Termination termination() {
        return termination;
    }
}
