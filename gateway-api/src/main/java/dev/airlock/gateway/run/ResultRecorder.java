package dev.airlock.gateway.run;

import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.Side;
import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.persistence.run.IllegalRunTransition;
import dev.airlock.persistence.scope.Scopes;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionException;

/**
 * Records what a run's process did, and never only in memory: a result the database refuses
 * (after a few quick retries) waits in the {@link ResultSpool} on disk, whose results are written
 * every {@code airlock.executor.retry-interval} and at start, oldest first, each staying there
 * until it is written. The replica keeps the lease of a spooled run meanwhile ({@link RunLeases}), for at most
 * {@code airlock.executor.spool-lease-limit}: a result the database keeps refusing (not an outage: a
 * result it can never take) would otherwise keep its run RUNNING for good. After that the run's lease
 * runs out and it ends INTERRUPTED; its result is still tried, and replaces that if it is ever written.
 */
@Component
class ResultRecorder implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(ResultRecorder.class);

    private final RunResults results;
    private final ResultSpool spool;
    private final RunCompletions completions;
    private final RunMetrics metrics;
    private final Scopes scopes;
    private final boolean agentSide;
    private final Duration spoolLeaseLimit;
    /** Spooled runs whose lease was let go (logged once each). */
    private final Set<UUID> letGo = ConcurrentHashMap.newKeySet();
    /**
     * When (monotonic) this process spooled each spooled result, or, for one it found in its spool after a restart,
     * when it first saw it less the file's age (at most the limit).
     */
    private final java.util.Map<UUID, Long> seen = new ConcurrentHashMap<>();
    /** Runs whose result is being recorded right now (the replay leaves them alone). */
    private final Set<UUID> recording = ConcurrentHashMap.newKeySet();

    private final Retry retry = Retry.of(
            "run-results",
            RetryConfig.custom()
                    .maxAttempts(5)
                    .intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofMillis(100), 2.0))
                    .retryExceptions(DataAccessException.class, TransactionException.class)
                    .build());

    ResultRecorder(
            RunResults results,
            ResultSpool spool,
            RunCompletions completions,
            RunMetrics metrics,
            Scopes scopes,
            AirlockProperties properties,
            dev.airlock.gateway.settings.AgentSettings settings) {
        this.spoolLeaseLimit = settings.executor().spoolLeaseLimit();
        this.results = results;
        this.spool = spool;
        this.completions = completions;
        this.metrics = metrics;
        this.scopes = scopes;
        this.agentSide = properties.roles().contains(Side.AGENT_API);
    }

    /**
     * Records the result of the run's process (in the calling thread's scope), or spools it.
     *
     * @return the run's envelope as written ({@link RunResults#record}), or null when it was spooled
     *         or its envelope must be read
     */
    @Nullable
    Envelope record(Execution execution, String tool, CaptureResult result) {
        UUID runId = execution.runId();
        metrics.ended(execution.tenant(), tool, result);
        recording.add(runId);
        try {
            return Retry.decorateSupplier(retry, () -> results.record(runId, execution.run(), result))
                    .get();
        } catch (IllegalRunTransition e) {
            // Already recorded (a write that committed before its answer was lost, and was tried again): nothing is
            // missing.
            log.warn("Run {}: its result was recorded already ({})", runId, e.getMessage());
            return null;
        } catch (DataAccessException | TransactionException e) {
            // Never only in memory: the result waits on disk, and this replica keeps its lease.
            log.error("Run {}: could not record its result yet ({}); keeping it in the spool", runId, e.getMessage());
            long spooled = System.nanoTime();
            spool.keep(runId, result);
            seen.put(runId, spooled);
            return null;
        } finally {
            recording.remove(runId);
        }
    }

    /**
     * The runs whose results wait in the spool, and whose leases this replica keeps: those spooled less than
     * {@code airlock.executor.spool-lease-limit} ago.
     */
    java.util.List<UUID> spooled() {
        long now = System.nanoTime();
        java.util.List<UUID> runs = spool.runs();
        seen.keySet().retainAll(runs);
        letGo.retainAll(runs);
        java.util.List<UUID> kept = new java.util.ArrayList<>();
        for (UUID runId : runs) {
            // Timed by this process's monotonic clock from when it spooled the result. One found after a restart counts
            // its file's age too, but never more than the limit: restarts do not keep a refused result's run RUNNING
            // for good, and a step of the host's clock lets its lease go no sooner than a restart would.
            long since = seen.computeIfAbsent(
                    runId, id -> now - spool.age(id, spoolLeaseLimit).toNanos());
            if (now - since >= spoolLeaseLimit.toNanos()) {
                if (letGo.add(runId)) {
                    log.error(
                            "Run {}: its result has waited in the spool for {} and the database still refuses it;"
                                    + " letting its lease go (the run ends INTERRUPTED; the result is still tried)",
                            runId,
                            spoolLeaseLimit);
                }
            } else {
                kept.add(runId);
            }
        }
        return kept;
    }

    /** Writes the results this replica kept in its spool before it last stopped. */
    @Override
    public void afterSingletonsInstantiated() {
        replay();
    }

    /** Writes the results kept in the spool, oldest first; each stays there until it is written. */
    @Scheduled(fixedDelayString = "${airlock.executor.retry-interval:PT5S}")
    void replay() {
        if (agentSide) {
            scopes.gatewayJobs().run(this::replaySpooled);
        }
    }

    private void replaySpooled() {
        for (UUID runId : spool.runs()) {
            if (recording.contains(runId)) {
                continue;
            }
            spool.read(runId).ifPresent(result -> {
                try {
                    results.record(runId, null, result);
                    spool.remove(runId);
                    completions.completed(runId);
                    log.info("Run {}: result recorded from the spool", runId);
                } catch (IllegalRunTransition e) {
                    // Already recorded (a write that succeeded before its answer was lost): nothing is missing.
                    log.warn("Run {}: spooled result not needed any more ({})", runId, e.getMessage());
                    spool.remove(runId);
                } catch (RunResults.RunGone e) {
                    // A run that ended INTERRUPTED and was removed by retention before this replica came back.
                    log.warn("Run {}: spooled result dropped, the run is no longer recorded", runId);
                    spool.remove(runId);
                } catch (DataAccessException | TransactionException e) {
                    log.debug("Run {}: the database still refuses its result: {}", runId, e.getMessage());
                } catch (RuntimeException e) {
                    // Kept for the next pass; the results after it are still replayed.
                    log.warn("Run {}: its spooled result could not be recorded ({})", runId, e.toString());
                }
            });
        }
    }
}
