package dev.airlock.egress;

import dev.airlock.egress.guard.EgressNetwork;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes and keeps the {@link Upstream}s of one application: one per name, all resolving names
 * through the same resolver and connecting through the same network, their resilience metrics in
 * one registry. Close it on shutdown.
 */
public final class Egress implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Egress.class);

    private final DnsResolver resolver;
    private final EgressNetwork network;
    private final Resilience resilience;
    private final Clock clock;
    private final ExecutorService attempts = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("egress-deadlines").daemon().factory());
    private final Map<String, Upstream> upstreams = new ConcurrentHashMap<>();

    /**
     * @param resolver the name resolver (the system's, unless a test controls it)
     * @param network  the network below the guard ({@link EgressNetwork#DIRECT} in production)
     * @param meters   where the resilience metrics go, or null for nowhere
     */
    public Egress(DnsResolver resolver, EgressNetwork network, @Nullable MeterRegistry meters, Clock clock) {
        this.resolver = resolver;
        this.network = network;
        this.resilience = new Resilience(meters);
        this.clock = clock;
    }

    /** The egress of production: the system's resolver, the direct network. */
    public static Egress system(@Nullable MeterRegistry meters) {
        return new Egress(SystemDefaultDnsResolver.INSTANCE, EgressNetwork.DIRECT, meters, Clock.systemUTC());
    }

    /**
     * The upstream called {@code name}, made with {@code policy} the first time it is asked for.
     *
     * @throws IllegalStateException when an upstream of that name exists with another policy
     */
    public Upstream upstream(String name, UpstreamPolicy policy) {
        Upstream upstream = upstreams.computeIfAbsent(
                name, n -> new Upstream(n, policy, resolver, network, resilience, attempts, timers, clock));
        if (!upstream.policy().equals(policy)) {
            throw new IllegalStateException("upstream " + name + " exists with another policy");
        }
        return upstream;
    }

    @Override
    public void close() {
        upstreams.forEach((name, upstream) -> {
            try {
                upstream.close();
            } catch (IOException e) {
                log.debug("Upstream {} did not close cleanly: {}", name, e.getMessage());
            }
            resilience.remove(name);
        });
        upstreams.clear();
        attempts.shutdownNow();
        timers.shutdownNow();
    }
}
