package dev.airlock.gateway.tool;

import java.util.Map;

/**
 * The call an upstream MCP tool's run makes, as recorded with the run and approved: exactly these
 * arguments, to this tool of this server, under this pinned definition.
 *
 * @param server           the tenant's MCP server
 * @param tool             the tool's name on that server
 * @param definitionSha256 the pinned definition the arguments were checked against
 * @param arguments        the arguments, canonical (keys sorted, integers as longs)
 */
public record McpCallRequest(String server, String tool, String definitionSha256, Map<String, Object> arguments) {}
