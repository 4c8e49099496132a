package dev.airlock.gateway.run;

import dev.airlock.persistence.envelope.Envelope;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    /** Each waiter's own future, by run: one waiter giving up never unhooks another's. */
    private final Map<UUID, Set<CompletableFuture<Optional<Envelope>>>> waiting = new ConcurrentHashMap<>();

    /** A new future of {@code runId}'s end, for one waiter; {@link #unwatch} it when done waiting. */
    CompletableFuture<Optional<Envelope>> watch(UUID runId) {
        CompletableFuture<Optional<Envelope>> future = new CompletableFuture<>();
        waiting.compute(runId, (id, futures) -> {
            Set<CompletableFuture<Optional<Envelope>>> set = futures == null ? new HashSet<>() : futures;
            set.add(future);
            return set;
        });
        return future;
    }

    void unwatch(UUID runId, CompletableFuture<Optional<Envelope>> future) {
        waiting.computeIfPresent(runId, (id, futures) -> {
            futures.remove(future);
            return futures.isEmpty() ? null : futures;
        });
    }

    /** The run has ended (or its end is known elsewhere): waiters read it. */
    void completed(UUID runId) {
        completed(runId, null);
    }

    /** The run has ended, and {@code envelope} (when not null) is its envelope as its result was written. */
    void completed(UUID runId, @Nullable Envelope envelope) {
        Set<CompletableFuture<Optional<Envelope>>> futures = waiting.remove(runId);
        if (futures != null) {
            Optional<Envelope> ended = Optional.ofNullable(envelope);
            futures.forEach(future -> future.complete(ended));
        }
    }

    /** How many waiters are watching {@code runId} (for tests). */
    int watching(UUID runId) {
        return waiting.getOrDefault(runId, Set.of()).size();
    }
}
