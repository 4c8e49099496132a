package dev.airlock.gateway.tenant;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An authenticated agent: one tenant, one agent name, the labels policy rules may ask about and
 * the tools it may use.
 *
 * @param tenant the tenant
 * @param agent  the agent's name within it
 * @param labels its labels
 * @param tools  the tools it may use, by name or glob; null for every tool of its tenant
 */
public record AgentIdentity(
        String tenant,
        String agent,
        Map<String, String> labels,
        @Nullable List<String> tools) {

    public AgentIdentity {
        labels = Map.copyOf(labels);
        tools = tools == null ? null : List.copyOf(tools);
    }

    /** An agent with no labels that may use every tool of its tenant. */
    public AgentIdentity(String tenant, String agent) {
        this(tenant, agent, Map.of(), null);
    }

    /** Whether the agent may use (and so may know of) the tool called {@code tool}. */
    public boolean mayUse(String tool) {
        if (tools == null) {
            return true;
        }
        for (String pattern : tools) {
            if (dev.airlock.kernel.config.Globs.matches(pattern, tool)) {
                return true;
            }
        }
        return false;
    }

    /** Equal when tenant and agent are: one agent is one identity, whatever its settings. */
    @Override
    public boolean equals(Object other) {
        return other instanceof AgentIdentity that && tenant.equals(that.tenant) && agent.equals(that.agent);
    }

    @Override
    public int hashCode() {
        return tenant.hashCode() * 31 + agent.hashCode();
    }
}
