/**
 * The Model Context Protocol front door: agents list and call their tenant's tools over
 * streamable HTTP at {@code /mcp}, through the same run pipeline, keys, policies and limits as
 * the REST API.
 */
@NullMarked
@ApplicationModule(
        allowedDependencies = {"http", "limits", "mcpupstream", "policy", "problem", "run", "settings", "tenant", "tool"
        })
package dev.airlock.gateway.mcp;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
