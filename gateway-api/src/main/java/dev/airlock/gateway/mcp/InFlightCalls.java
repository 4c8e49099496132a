package dev.airlock.gateway.mcp;

import dev.airlock.gateway.tenant.AgentIdentity;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The {@code tools/call} requests this replica is answering, by agent and JSON-RPC request id,
 * so that a client's {@code notifications/cancelled} can find the run it means. Stateless
 * clients share no session, so one agent's request ids are not unique: a cancellation that
 * matches more than one call in flight is ambiguous and cancels nothing.
 */
final class InFlightCalls {

    /**
     * One agent's request, as the client numbered it.
     *
     * @param agent     the agent
     * @param requestId the JSON-RPC id, as its JSON text ({@code 7} and {@code "7"} differ)
     */
    record Key(AgentIdentity agent, String requestId) {}

    /**
     * A call in flight. A cancellation may arrive before its run exists: it is remembered, and
     * whoever comes second (the cancellation or the run) cancels the run. Both may; cancelling
     * twice is harmless.
     */
    static final class Call {

        private volatile @Nullable UUID runId;
        private volatile boolean cancelRequested;

        /** Records the call's run; true when a cancellation came first and the run must be cancelled now. */
        boolean runStarted(UUID id) {
            this.runId = id;
            return cancelRequested;
        }

        /** Records the cancellation; the run to cancel now, if the run already exists. */
        Optional<UUID> requestCancel() {
            cancelRequested = true;
            return Optional.ofNullable(runId);
        }
    }

    private final Map<Key, Map<Call, Boolean>> calls = new ConcurrentHashMap<>();

    /** Registers a call; the caller must {@link #end} it. */
    Call begin(Key key) {
        Call call = new Call();
        calls.compute(key, (k, present) -> {
            Map<Call, Boolean> all = present == null ? new ConcurrentHashMap<>() : present;
            all.put(call, Boolean.TRUE);
            return all;
        });
        return call;
    }

    void end(Key key, Call call) {
        calls.computeIfPresent(key, (k, present) -> {
            present.remove(call);
            return present.isEmpty() ? null : present;
        });
    }

    /**
     * The one call in flight under {@code key}, or empty when there is none or more than one
     * (two clients of one agent may use the same id at once).
     */
    Optional<Call> sole(Key key) {
        Map<Call, Boolean> present = calls.get(key);
        if (present == null) {
            return Optional.empty();
        }
        var all = java.util.List.copyOf(present.keySet());
        return all.size() == 1 ? Optional.of(all.getFirst()) : Optional.empty();
    }

    /** How many calls are in flight under {@code key} (for logging an ambiguous cancellation). */
    int count(Key key) {
        Map<Call, Boolean> present = calls.get(key);
        return present == null ? 0 : present.size();
    }
}
