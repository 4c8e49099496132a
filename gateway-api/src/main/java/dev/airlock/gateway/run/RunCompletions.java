package dev.airlock.gateway.run;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/** Wakes requests waiting ({@code ?wait=}) for a run that this replica finished. */
@Component
class RunCompletions {

    private final Map<UUID, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();

    CompletableFuture<Void> watch(UUID runId) {
        return waiting.computeIfAbsent(runId, id -> new CompletableFuture<>());
    }

    void unwatch(UUID runId, CompletableFuture<Void> future) {
        waiting.remove(runId, future);
    }

    void completed(UUID runId) {
        CompletableFuture<Void> future = waiting.remove(runId);
        if (future != null) {
            future.complete(null);
        }
    }
}
