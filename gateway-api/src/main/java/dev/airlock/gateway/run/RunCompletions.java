package dev.airlock.gateway.run;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.persistence.envelope.Envelope;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Wakes requests waiting ({@code ?wait=}) for a run that this replica finished, handing them the
 * run's envelope as its result was written when this replica has it (then they need not read the
 * run back), or null when they must read it. Also tells them to look again ({@link LookAgain}) when
 * the database announced a run's end ({@link RunNotificationListener}), and whether this replica
 * hears those announcements at all: while it does, waiters need not read the run's state often.
 */
@Component
class RunCompletions {

    /** Each waiter's own future, by run: one waiter giving up never unhooks another's. */
    private final Map<UUID, Set<CompletableFuture<Optional<Envelope>>>> waiting = new ConcurrentHashMap<>();

    /** How often a waiter reads its run's state while no announcements are heard. */
    static final long POLL_MILLIS = 200;

    private final long recheckMillis;
    private volatile boolean hearingEnds;

    @Autowired
    RunCompletions(AgentSettings settings) {
        this(settings.executor().waitRecheckInterval());
    }

    /** Completions whose waiters read their run's state every {@code recheckInterval} while ends are heard. */
    RunCompletions(Duration recheckInterval) {
        this.recheckMillis = Math.max(POLL_MILLIS, recheckInterval.toMillis());
    }

    /**
     * How a waiter's future ends when it should read the run's state now and, if it has not ended,
     * watch it again: its end was announced through the database (a cue, not a fact), or this
     * replica started or stopped hearing announcements (an end in the gap would not be announced).
     */
    static final class LookAgain extends RuntimeException {
        private static final LookAgain INSTANCE = new LookAgain();

        private LookAgain() {
            super("look again", null, false, false);
        }
    }

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

    /** The database announced {@code runId}'s end: its waiters read its state (and watch it again if it has not ended). */
    void lookAgain(UUID runId) {
        Set<CompletableFuture<Optional<Envelope>>> futures = waiting.remove(runId);
        if (futures != null) {
            futures.forEach(future -> future.completeExceptionally(LookAgain.INSTANCE));
        }
    }

    /**
     * Whether this replica hears the database's announcements of runs' ends from now on; every waiter
     * reads its run's state once (an end while none were heard was not announced here).
     */
    void hearingEnds(boolean hearing) {
        hearingEnds = hearing;
        waiting.keySet().forEach(this::lookAgain);
    }

    /** Whether this replica hears the database's announcements of runs' ends. */
    boolean hearsEnds() {
        return hearingEnds;
    }

    /**
     * How long a waiter waits before it reads its run's state itself: {@code airlock.executor.wait-recheck-interval}
     * while ends are heard, {@link #POLL_MILLIS} while they are not.
     */
    long recheckMillis() {
        return hearingEnds ? recheckMillis : POLL_MILLIS;
    }

    /** How many waiters are watching {@code runId} (for tests). */
    int watching(UUID runId) {
        return waiting.getOrDefault(runId, Set.of()).size();
    }
}
