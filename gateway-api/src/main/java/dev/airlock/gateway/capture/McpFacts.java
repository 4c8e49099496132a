package dev.airlock.gateway.capture;

import org.jspecify.annotations.Nullable;

/**
 * What Airlock observed of a call of an upstream MCP server's tool, recorded with the run (as JSON)
 * and shown in the envelope's {@code mcp}.
 *
 * @param server       the tenant's MCP server
 * @param tool         the tool's name on that server
 * @param isError      the result's {@code isError}, when the server answered with a result
 * @param errorCode    the JSON-RPC error's code, when the server answered with one
 * @param reason       why the call failed or was refused (the JSON-RPC error's message, sanitized); null when it
 *                     responded with a result
 */
public record McpFacts(
        String server,
        String tool,
        @Nullable Boolean isError,
        @Nullable Integer errorCode,
        @Nullable String reason) implements CallObservation {}
