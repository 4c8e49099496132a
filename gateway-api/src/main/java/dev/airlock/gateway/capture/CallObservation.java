package dev.airlock.gateway.capture;

/** What Airlock observed of a call to an upstream: an HTTP API's, or an MCP server's tool. */
public sealed interface CallObservation permits CallFacts, McpFacts {}
