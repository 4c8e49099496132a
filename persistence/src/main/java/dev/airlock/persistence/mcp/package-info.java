/**
 * Upstream MCP servers' tool definitions as Airlock has seen them, by digest, and whether people
 * let each be offered (pinning against changed tools).
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"audit"})
package dev.airlock.persistence.mcp;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
