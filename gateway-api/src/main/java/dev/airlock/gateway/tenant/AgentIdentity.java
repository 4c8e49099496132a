package dev.airlock.gateway.tenant;

/**
 * An authenticated agent: one tenant, one agent name.
 *
 * @param tenant the tenant
 * @param agent  the agent's name within it
 */
public record AgentIdentity(String tenant, String agent) {}
