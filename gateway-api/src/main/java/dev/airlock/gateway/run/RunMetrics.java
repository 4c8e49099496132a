package dev.airlock.gateway.run;

import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.capture.StreamResult;
import dev.airlock.persistence.run.Termination;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * The execution side's metrics, as Prometheus sees them: runs ended by tenant, tool and
 * termination, their duration, spawn failures, what the sanitizer removed, lease expiries and how
 * long a drain took. Thread-safe.
 */
@Component
class RunMetrics {

    private final MeterRegistry meters;
    private final Counter leaseExpiries;
    private final Timer drain;

    RunMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.leaseExpiries = Counter.builder("airlock.runs.lease.expired")
                .description("Runs ended INTERRUPTED because their replica's lease ran out")
                .register(meters);
        this.drain = Timer.builder("airlock.executor.drain")
                .description("How long a shutdown drain took")
                .register(meters);
    }

    /** A run's process (or its attempt to start) ended. */
    void ended(String tenant, String tool, CaptureResult result) {
        String termination = result.termination().name();
        Counter.builder("airlock.runs.ended")
                .description("Runs whose execution ended")
                .tag("tenant", tenant)
                .tag("tool", tool)
                .tag("termination", termination)
                .register(meters)
                .increment();
        if (result.termination() == Termination.SPAWN_FAILED) {
            Counter.builder("airlock.runs.spawn.failures")
                    .description("Runs that could not be started (sandbox, secrets, program)")
                    .tag("tenant", tenant)
                    .register(meters)
                    .increment();
            return;
        }
        Timer.builder("airlock.runs.duration")
                .description("Time from process start to end")
                .tag("tenant", tenant)
                .tag("tool", tool)
                .register(meters)
                .record(Duration.between(result.startedAt(), result.endedAt()));
        removals(tenant, result.stdout());
        removals(tenant, result.stderr());
    }

    private void removals(String tenant, StreamResult stream) {
        if (stream == null || stream.removed().isClean()) {
            return;
        }
        Removals.counts(stream.removed()).forEach((kind, count) -> {
            if (count > 0) {
                Counter.builder("airlock.sanitizer.removed")
                        .description("What the sanitizer removed from output")
                        .tag("tenant", tenant)
                        .tag("kind", kind)
                        .register(meters)
                        .increment(count);
            }
        });
    }

    /** A request that asked to wait for a run got the run at once: its tenant had no free place to wait. */
    void waitRefused(String tenant) {
        Counter.builder("airlock.waits.refused")
                .description(
                        "Requests answered at once because their tenant had limits.concurrent-waits requests waiting")
                .tag("tenant", tenant)
                .register(meters)
                .increment();
    }

    /**
     * A waiting request read its run's state from the database: the run was not executing on this replica under a
     * lease no peer can have found run out, so its end could be written elsewhere.
     */
    void waitStateRead(String tenant) {
        Counter.builder("airlock.waits.state.reads")
                .description("Reads of a waited run's state by a request waiting for it, in case it ended elsewhere")
                .tag("tenant", tenant)
                .register(meters)
                .increment();
    }

    /** A lease ran out and its run was interrupted. */
    void leaseExpired() {
        leaseExpiries.increment();
    }

    /** A shutdown drain finished. */
    void drained(Duration took) {
        drain.record(took);
    }
}
