package dev.airlock.gateway.run;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Whether this replica may still act on a run it executes. A run's lease holds for the TTL from the
 * statement that last wrote it (its claim, or a renewal), by the database's clock; once it has run out,
 * any peer may end the run {@code INTERRUPTED}. A run whose lease this replica has not written for the
 * TTL less a sixth and less one check interval (the database down, or unreachable from this replica
 * alone, or its statements hanging, or the run's claim answered late) is stopped, or refused if it has
 * not started, before that can happen. A replica cannot tell a partition from an outage, so an outage
 * that long stops its runs too.
 *
 * <p>Each run is timed by the monotonic clock from the start of the last statement that wrote its lease
 * (the lease runs from the database's clock at or after that start). Pauses of the replica's own process
 * (a collector's pause, a stopped container) stop this clock's checks with it; only a pause shorter than
 * the margin is covered. Thread-safe.
 */
@Component
class LeaseFence {

    private final long lapseAfterNanos;
    private final Duration lapseAfter;

    /** When (monotonic) the statement that last wrote each registered run's lease began. */
    private final Map<UUID, Long> written = new ConcurrentHashMap<>();

    /** Registered runs no renewal has been answered about yet (one may be due for them at once). */
    private final java.util.Set<UUID> unrenewed = ConcurrentHashMap.newKeySet();

    /**
     * The fence of this replica's leases ({@code airlock.executor.lease-ttl} and {@code lease-check-interval}); a
     * setting of the leases that would leave it no margin stops the start, naming the key.
     */
    @Autowired
    LeaseFence(AgentSettings settings) {
        this(checked(settings.executor()), settings.executor().leaseCheckInterval());
    }

    /** A fence for leases of {@code ttl}, checked every {@code interval}. */
    LeaseFence(Duration ttl, Duration interval) {
        this.lapseAfter = ttl.minus(ttl.dividedBy(6)).minus(interval);
        this.lapseAfterNanos = lapseAfter.toNanos();
    }

    private static Duration checked(AgentSettings.Executor settings) {
        Duration ttl = settings.leaseTtl();
        Duration interval = settings.leaseCheckInterval();
        if (interval.compareTo(ttl.dividedBy(12)) > 0) {
            // Renewals are tried, and the fence checked, at this interval: runs stop at the TTL less a sixth and one
            // interval, renewals come every third and one interval; a longer one leaves a renewal no time to be late.
            throw new InvalidConfigurationException(
                    "airlock.executor.lease-check-interval",
                    "is " + interval + ", longer than a twelfth of airlock.executor.lease-ttl (" + ttl + ")");
        }
        if (settings.spoolLeaseLimit().compareTo(ttl) < 0) {
            throw new InvalidConfigurationException(
                    "airlock.executor.spool-lease-limit",
                    "is " + settings.spoolLeaseLimit() + ", shorter than airlock.executor.lease-ttl (" + ttl + ")");
        }
        return ttl;
    }

    /** The run's lease was written by a statement that began at {@code startedNanos}: its claim. */
    void claimed(UUID runId, long startedNanos) {
        written.put(runId, startedNanos);
        unrenewed.add(runId);
    }

    /** These runs' leases were written again by a renewal that began at {@code startedNanos}. */
    void renewed(Collection<UUID> runIds, long startedNanos) {
        for (UUID runId : runIds) {
            written.computeIfPresent(runId, (id, before) -> startedNanos - before > 0 ? startedNanos : before);
        }
    }

    /** A renewal was answered about these runs (renewed, passed over, or lost): none is due for them at once. */
    void tried(Collection<UUID> runIds) {
        unrenewed.removeAll(runIds);
    }

    /**
     * Whether a run no renewal has been answered about yet had its lease written before {@code nanos} (its claim was
     * answered late): a renewal is due for it at once.
     */
    boolean dueForRenewal(long nanos) {
        for (UUID runId : unrenewed) {
            Long since = written.get(runId);
            if (since != null && nanos - since > 0) {
                return true;
            }
        }
        return false;
    }

    /** The run no longer executes here. */
    void released(UUID runId) {
        written.remove(runId);
        unrenewed.remove(runId);
    }

    /**
     * Whether the run must not start: its lease may run out before long, or it is not registered here (it was
     * stopped by the fence already).
     */
    boolean lapsed(UUID runId, long nowNanos) {
        Long since = written.get(runId);
        return since == null || nowNanos - since >= lapseAfterNanos;
    }

    /** The registered runs whose leases lapsed at {@code nowNanos}, taken out of the fence: they must be stopped. */
    List<UUID> takeLapsed(long nowNanos) {
        List<UUID> lapsed = new ArrayList<>();
        for (Map.Entry<UUID, Long> run : written.entrySet()) {
            if (nowNanos - run.getValue() >= lapseAfterNanos && written.remove(run.getKey(), run.getValue())) {
                unrenewed.remove(run.getKey());
                lapsed.add(run.getKey());
            }
        }
        return lapsed;
    }

    /** How long after the statement that last wrote a run's lease the fence stops the run. */
    Duration lapseAfter() {
        return lapseAfter;
    }
}
