package dev.airlock.gateway.tool;

import dev.airlock.gateway.capture.MountRules;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every tenant's tools: those compiled from the configuration at start-up, the rules their mounts
 * keep, and the tools its upstream MCP servers offer now (replaced as a whole, server by server,
 * each time a server's listing is read). Thread-safe.
 */
public final class ToolCatalog {

    private final Map<String, Map<String, Tool>> toolsByTenant;
    private final MountRules mounts;
    private final Map<String, Map<String, Tool>> offeredByServer = new java.util.concurrent.ConcurrentHashMap<>();

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
        Tool configured = toolsByTenant.getOrDefault(tenant, Map.of()).get(name);
        if (configured != null) {
            return Optional.of(configured);
        }
        // An MCP server's tool is "<server>.<its name>", and no server's name holds a dot: one lookup.
        int dot = name.indexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        return Optional.ofNullable(offeredByServer
                .getOrDefault(serverKey(tenant, name.substring(0, dot)), Map.of())
                .get(name));
    }

    /** The longest name of an MCP server (the patterns that check server names are built from it). */
    public static final int MAX_SERVER_NAME_LENGTH = 63;

    /** The longest name of a tool an MCP server lists (likewise). */
    public static final int MAX_UPSTREAM_TOOL_NAME_LENGTH = 128;

    /**
     * The longest name a tool can have: an MCP server's name, a dot and its tool's name; a configured
     * tool's is shorter. A longer name is no tool's, and is not looked at further.
     */
    public static final int MAX_NAME_LENGTH = MAX_SERVER_NAME_LENGTH + 1 + MAX_UPSTREAM_TOOL_NAME_LENGTH;

    /**
     * Offers {@code tools} of {@code tenant}'s MCP server {@code server} from now on, instead of
     * what it offered before (none: the server's tools are unavailable).
     */
    public void offer(String tenant, String server, java.util.Collection<Tool> tools) {
        Map<String, Tool> byName = new java.util.TreeMap<>();
        tools.forEach(t -> byName.put(t.name(), t));
        offeredByServer.put(serverKey(tenant, server), Map.copyOf(byName));
    }

    /** Whether {@code name} is one of the tenant's configured tools (not one an MCP server offers). */
    public boolean configured(String tenant, String name) {
        return toolsByTenant.getOrDefault(tenant, Map.of()).containsKey(name);
    }

    private static String serverKey(String tenant, String server) {
        // No tenant name holds "/", so no two pairs share a key.
        return tenant + "/" + server;
    }

    /** The tool of that name that {@code agent} may use: any other is unknown to it, exactly like one that does not exist. */
    public Optional<Tool> find(dev.airlock.gateway.tenant.AgentIdentity agent, String name) {
        if (name.length() > MAX_NAME_LENGTH) {
            return Optional.empty();
        }
        return agent.mayUse(name) ? find(agent.tenant(), name) : Optional.empty();
    }

    /** The tools of its tenant that {@code agent} may use, by name. */
    public List<Tool> tools(dev.airlock.gateway.tenant.AgentIdentity agent) {
        return tools(agent.tenant()).stream()
                .filter(t -> agent.mayUse(t.name()))
                .toList();
    }

    /** The tenant's tools (its MCP servers' included), by name. */
    public List<Tool> tools(String tenant) {
        java.util.stream.Stream<Tool> offered = offeredByServer.entrySet().stream()
                .filter(e -> e.getKey().startsWith(tenant + "/"))
                .flatMap(e -> e.getValue().values().stream());
        return java.util.stream.Stream.concat(toolsByTenant.getOrDefault(tenant, Map.of()).values().stream(), offered)
                .sorted(java.util.Comparator.comparing(Tool::name))
                .toList();
    }

    /** Every configured tool of every tenant (not those MCP servers offer). */
    public List<Tool> all() {
        return toolsByTenant.values().stream().flatMap(m -> m.values().stream()).toList();
    }
}
