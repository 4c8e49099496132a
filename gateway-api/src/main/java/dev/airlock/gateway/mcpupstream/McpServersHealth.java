package dev.airlock.gateway.mcpupstream;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code upstreamMcpServers} component of {@code /actuator/health}: DOWN while any tenant's upstream
 * MCP server is down (its tools unavailable), with each server's state as a detail where details
 * are shown. Readiness does not include it: the gateway serves every other tool meanwhile.
 */
@Component("upstreamMcpServersHealthIndicator")
class McpServersHealth implements HealthIndicator {

    private final McpServers servers;

    McpServersHealth(McpServers servers) {
        this.servers = servers;
    }

    @Override
    public Health health() {
        Map<String, @Nullable String> states = servers.health();
        Health.Builder health =
                states.values().stream().allMatch(java.util.Objects::isNull) ? Health.up() : Health.down();
        states.forEach((server, down) -> health.withDetail(server, down == null ? "UP" : "DOWN: " + down));
        return health.build();
    }
}
