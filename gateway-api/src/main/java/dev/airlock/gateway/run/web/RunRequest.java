package dev.airlock.gateway.run.web;

import java.util.Map;

/**
 * The body of {@code POST /api/v1/runs}.
 *
 * @param tool      the tool to run
 * @param arguments its arguments, checked against the tool's parameters
 */
record RunRequest(String tool, Map<String, Object> arguments) {}
