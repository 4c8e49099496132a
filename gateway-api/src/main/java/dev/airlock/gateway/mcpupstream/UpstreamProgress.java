package dev.airlock.gateway.mcpupstream;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * The latest progress an upstream MCP server reported for each call in flight on this replica, as
 * Airlock's own words around the server's (sanitized, bounded) message, for the MCP endpoint to
 * relay to the agent waiting for that run. Forgotten when the call ends.
 */
@Component
public class UpstreamProgress {

    private final Map<UUID, String> latest = new ConcurrentHashMap<>();

    /** What the server last reported of {@code runId}'s call, if its call is in flight here. */
    public Optional<String> of(UUID runId) {
        return Optional.ofNullable(latest.get(runId));
    }

    void report(UUID runId, String message) {
        latest.put(runId, message);
    }

    void forget(UUID runId) {
        latest.remove(runId);
    }
}
