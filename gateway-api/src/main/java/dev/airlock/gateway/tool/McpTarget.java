package dev.airlock.gateway.tool;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What makes a tool an upstream MCP server's tool: which server, its name there, and the pinned
 * definition it is offered under.
 *
 * @param server           the tenant's MCP server (its name in {@code mcp-servers})
 * @param tool             the tool's name on that server
 * @param definitionSha256 SHA-256 of the tool's canonical definition as pinned
 * @param serverSha256     SHA-256 of what decides where a call goes and what it carries: the server's
 *                         command, URL, environment and secrets' sources, sandbox, network permission,
 *                         trust store and credential's sources (a run approved for one is never sent to another)
 * @param inputSchema      the server's JSON Schema of the arguments
 * @param outputSchema     the server's JSON Schema of its structured result, or null
 * @param title            its title, sanitized, or null
 * @param compiled         {@code inputSchema}, compiled
 */
public record McpTarget(
        String server,
        String tool,
        String definitionSha256,
        String serverSha256,
        Map<String, Object> inputSchema,
        @Nullable Map<String, Object> outputSchema,
        @Nullable String title,
        ArgumentSchema compiled) {

    /** What runs record of it (the schemas included: arguments were checked against this one). */
    public Map<String, Object> definition() {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("server", server);
        definition.put("tool", tool);
        definition.put("definitionSha256", definitionSha256);
        definition.put("serverSha256", serverSha256);
        definition.put("inputSchema", inputSchema);
        return definition;
    }
}
