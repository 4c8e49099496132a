package dev.airlock.gateway.run;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Whether this replica may still act on its runs' leases. A lease holds for the TTL from its last
 * renewal by the database's clock; a replica that has not renewed for five sixths of it (the
 * database down, or unreachable from this replica alone, or its statements hanging) can no longer
 * tell whether a peer is about to end its runs {@code INTERRUPTED}. Before that can happen it stops
 * their processes and starts none, so that nothing acts on a run the cluster has given up. It
 * cannot tell a partition from an outage, so an outage longer than that stops its runs too.
 *
 * <p>Timed by the monotonic clock from the start of the last renewal that succeeded (the lease it
 * wrote runs from the database's clock at or after that start). Thread-safe.
 */
@Component
class LeaseFence {

    private final long lapseAfterNanos;
    private final Duration lapseAfter;
    private volatile long confirmedAt;

    /** A fence for this replica's leases ({@code airlock.executor.lease-ttl}), from its start, when it holds none. */
    @Autowired
    LeaseFence(AgentSettings settings) {
        this(settings.executor().leaseTtl(), System.nanoTime());
        Duration interval = settings.executor().leaseCheckInterval();
        if (interval.compareTo(settings.executor().leaseTtl().dividedBy(6)) > 0) {
            // Renewals are tried at this interval: a longer one would let leases lapse between two tries.
            throw new InvalidConfigurationException(
                    "airlock.executor.lease-check-interval",
                    "is " + interval + ", longer than a sixth of airlock.executor.lease-ttl ("
                            + settings.executor().leaseTtl() + ")");
        }
    }

    /** A fence for leases of {@code ttl}, confirmed as of {@code nowNanos}. */
    LeaseFence(Duration ttl, long nowNanos) {
        this.lapseAfter = ttl.minus(ttl.dividedBy(6));
        this.lapseAfterNanos = lapseAfter.toNanos();
        this.confirmedAt = nowNanos;
    }

    /**
     * The leases held when a renewal began at {@code startedNanos} were all renewed (or nothing was
     * held then, so there was nothing to lose).
     */
    synchronized void confirmed(long startedNanos) {
        if (startedNanos - confirmedAt > 0) {
            confirmedAt = startedNanos;
        }
    }

    /** Whether, at {@code nowNanos}, the leases may have run out before long: the replica must stop its runs. */
    boolean lapsed(long nowNanos) {
        return nowNanos - confirmedAt >= lapseAfterNanos;
    }

    /** How long after the last renewal the fence stops the replica's runs. */
    Duration lapseAfter() {
        return lapseAfter;
    }
}
