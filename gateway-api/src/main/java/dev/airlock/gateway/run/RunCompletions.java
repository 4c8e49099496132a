package dev.airlock.gateway.run;

import dev.airlock.persistence.envelope.Envelope;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Wakes requests waiting ({@code ?wait=}) for a run that this replica finished, handing them the
 * run's envelope as its result was written when this replica has it (then they need not read the
 * run back), or null when they must read it.
 */
@Component
class RunCompletions {

    private final Map<UUID, CompletableFuture<@Nullable Envelope>> waiting = new ConcurrentHashMap<>();

    CompletableFuture<@Nullable Envelope> watch(UUID runId) {
        return waiting.computeIfAbsent(runId, id -> new CompletableFuture<>());
    }

    void unwatch(UUID runId, CompletableFuture<@Nullable Envelope> future) {
        waiting.remove(runId, future);
    }

    /** The run has ended (or its end is known elsewhere): waiters read it. */
    void completed(UUID runId) {
        completed(runId, null);
    }

    /** The run has ended, and {@code envelope} (when not null) is its envelope as its result was written. */
    void completed(UUID runId, @Nullable Envelope envelope) {
        CompletableFuture<@Nullable Envelope> future = waiting.remove(runId);
        if (future != null) {
            future.complete(envelope);
        }
    }
}
