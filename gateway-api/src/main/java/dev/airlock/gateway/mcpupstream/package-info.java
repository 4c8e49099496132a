/**
 * Upstream MCP servers behind Airlock (docs/mcp-upstreams.md): each tenant's servers, started in
 * the sandbox (stdio) or reached through the guarded client (streamable HTTP), kept running and
 * listed; their tools offered as {@code <server>.<tool>} only under pinned definitions (a changed or
 * new tool is held until a tenant administrator approves it); and the call of one run, its answer
 * fenced, sanitized and redacted like a process's output, the complete JSON-RPC answer kept raw.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"capture", "settings", "tool", "upstream"})
package dev.airlock.gateway.mcpupstream;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
