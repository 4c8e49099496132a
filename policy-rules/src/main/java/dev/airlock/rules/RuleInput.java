package dev.airlock.rules;

import java.time.Instant;
import java.util.Map;

/**
 * What a rule sees of a run request.
 *
 * @param args   the checked arguments (strings, longs and booleans), defaults filled in
 * @param agent  the requesting agent's name
 * @param labels the agent's labels
 * @param tenant the tenant
 * @param tool   the tool
 * @param now    the time of the request
 */
public record RuleInput(
        Map<String, Object> args, String agent, Map<String, String> labels, String tenant, String tool, Instant now) {}
