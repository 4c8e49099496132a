package dev.airlock.gateway.tool;

import dev.airlock.gateway.capture.MountRules;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every tenant's tools, compiled from the configuration at start-up, and the rules their mounts keep. Immutable. */
public final class ToolCatalog {

    private final Map<String, Map<String, Tool>> toolsByTenant;
    private final MountRules mounts;

    public ToolCatalog(Map<String, Map<String, Tool>> toolsByTenant, MountRules mounts) {
        this.toolsByTenant = Map.copyOf(toolsByTenant);
        this.mounts = mounts;
    }

    /** The rules every run's mounts keep, over the mounts of today's tools. */
    public MountRules mounts() {
        return mounts;
    }

    /** The tenant's tool of that name. */
    public Optional<Tool> find(String tenant, String name) {
        return Optional.ofNullable(toolsByTenant.getOrDefault(tenant, Map.of()).get(name));
    }

    /** The tool of that name that {@code agent} may use: any other is unknown to it, exactly like one that does not exist. */
    public Optional<Tool> find(dev.airlock.gateway.tenant.AgentIdentity agent, String name) {
        return agent.mayUse(name) ? find(agent.tenant(), name) : Optional.empty();
    }

    /** The tools of its tenant that {@code agent} may use, by name. */
    public List<Tool> tools(dev.airlock.gateway.tenant.AgentIdentity agent) {
        return tools(agent.tenant()).stream()
                .filter(t -> agent.mayUse(t.name()))
                .toList();
    }

    /** The tenant's tools, by name. */
    public List<Tool> tools(String tenant) {
        return toolsByTenant.getOrDefault(tenant, Map.of()).values().stream()
                .sorted(java.util.Comparator.comparing(Tool::name))
                .toList();
    }

    /** Every tool of every tenant. */
    public List<Tool> all() {
        return toolsByTenant.values().stream().flatMap(m -> m.values().stream()).toList();
    }
}
