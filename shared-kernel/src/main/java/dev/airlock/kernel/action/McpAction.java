package dev.airlock.kernel.action;

/**
 * The exact call of an upstream MCP server's tool a run makes, as approvers see it.
 *
 * @param tenant           the tenant
 * @param tool             the tool's name in Airlock ({@code <server>.<tool>})
 * @param server           the tenant's MCP server
 * @param serverTool       the tool's name on that server
 * @param definitionSha256 SHA-256 of the tool's pinned definition the call was checked against
 * @param arguments        the arguments as canonical JSON (keys sorted), pretty-printed for people
 * @param timeout          the call's time limit, ISO-8601
 */
public record McpAction(
        String tenant,
        String tool,
        String server,
        String serverTool,
        String definitionSha256,
        String arguments,
        String timeout) {}
