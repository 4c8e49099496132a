package dev.airlock.gateway.run.web;

import java.util.Map;

/**
 * The body of {@code POST /api/v1/runs}.
 *
 * @param tool      the tool to run
 * @param arguments its arguments, checked against the tool's parameters
 * @param reason    why the agent asks (at most 500 characters): untrusted, shown to approvers as the agent's
 *                  words, never part of a decision
 */
record RunRequest(
        String tool,
        Map<String, Object> arguments,
        @org.jspecify.annotations.Nullable String reason) {}
