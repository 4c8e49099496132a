package dev.airlock.gateway.limits;

import dev.airlock.gateway.problem.TooManyRequests;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.tenant.AgentIdentity;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * The limits of each tenant: how many of its runs execute at once on this replica, how many
 * runs each of its agents may request and how many reads it may make per minute, and how many of its agents' requests may wait
 * for a run to end at once on this replica.
 */
@Component
public class TenantLimits {

    private final AgentSettings properties;
    private final Map<String, Bulkhead> bulkheads = new ConcurrentHashMap<>();
    private final Map<AgentIdentity, RateLimiter> rateLimiters = new ConcurrentHashMap<>();
    private final Map<AgentIdentity, RateLimiter> readLimiters = new ConcurrentHashMap<>();
    private final Map<String, Bulkhead> waits = new ConcurrentHashMap<>();

    TenantLimits(AgentSettings properties) {
        this.properties = properties;
    }

    /**
     * Counts one request of {@code agent} against its rate.
     *
     * @throws TooManyRequests with the seconds to wait when the agent is over its rate
     */
    public void admitRequest(AgentIdentity agent) {
        int perMinute = limits(agent.tenant()).runsPerMinutePerAgent();
        RateLimiter limiter = perMinute(rateLimiters, "runs-", agent, perMinute);
        if (!limiter.acquirePermission()) {
            throw TooManyRequests.rateLimited(agent.agent(), perMinute, secondsToWait(limiter));
        }
    }

    /**
     * Counts one read of {@code agent} (a run's envelope or output, a cancel; over REST or MCP) against
     * its rate ({@code limits.reads-per-minute-per-agent}): each loads a run's transcripts from the
     * database, so an agent polling without pause would take the connections every tenant shares.
     *
     * @throws TooManyRequests with the seconds to wait when the agent is over its rate
     */
    public void admitRead(AgentIdentity agent) {
        int perMinute = limits(agent.tenant()).readsPerMinutePerAgent();
        RateLimiter limiter = perMinute(readLimiters, "reads-", agent, perMinute);
        if (!limiter.acquirePermission()) {
            throw TooManyRequests.readLimited(agent.agent(), perMinute, secondsToWait(limiter));
        }
    }

    /** {@code agent}'s limiter in {@code limiters}, made on first use: {@code perMinute} permits a minute, no waiting. */
    private static RateLimiter perMinute(
            Map<AgentIdentity, RateLimiter> limiters, String prefix, AgentIdentity agent, int perMinute) {
        return limiters.computeIfAbsent(
                agent,
                a -> RateLimiter.of(
                        prefix + a.tenant() + "-" + a.agent(),
                        RateLimiterConfig.custom()
                                .limitForPeriod(perMinute)
                                .limitRefreshPeriod(Duration.ofMinutes(1))
                                .timeoutDuration(Duration.ZERO)
                                .build()));
    }

    private static long secondsToWait(RateLimiter limiter) {
        long nanos = limiter instanceof AtomicRateLimiter atomic
                ? atomic.getDetailedMetrics().getNanosToWait()
                : TimeUnit.MINUTES.toNanos(1);
        return Math.max(1, TimeUnit.NANOSECONDS.toSeconds(nanos) + 1);
    }

    /**
     * Refuses one more request for people's approval of {@code agent} when it already has
     * {@code pending} waiting ({@code limits.pending-approvals-per-agent}): each request is a message to
     * its approvers, and a flood of them hides the one that matters.
     *
     * @throws TooManyRequests when the agent already has as many as it may
     */
    public void admitApprovalRequest(AgentIdentity agent, long pending) {
        int most = limits(agent.tenant()).pendingApprovalsPerAgent();
        if (pending >= most) {
            throw TooManyRequests.approvalsPending(agent.agent(), most);
        }
    }

    /** A slot to execute one run of {@code tenant}, if one is free. Release it when the run ends. */
    public Optional<Permit> tryExecute(String tenant) {
        Bulkhead bulkhead = bulkhead(tenant);
        return bulkhead.tryAcquirePermission() ? Optional.of(new Permit(bulkhead)) : Optional.empty();
    }

    /**
     * A slot to execute one run of {@code tenant}.
     *
     * @throws TooManyRequests when the tenant already runs as many as it may
     */
    public Permit execute(String tenant) {
        return tryExecute(tenant)
                .orElseThrow(
                        () -> TooManyRequests.tenantBusy(tenant, limits(tenant).concurrentRuns()));
    }

    /**
     * A place for one request of {@code tenant} to wait for a run to end, if the tenant has one
     * free on this replica ({@code limits.concurrent-waits}). Close it when the wait ends.
     */
    public Optional<Permit> tryWait(String tenant) {
        Bulkhead places = waitPlaces(tenant);
        return places.tryAcquirePermission() ? Optional.of(new Permit(places)) : Optional.empty();
    }

    /** How many more requests of {@code tenant} may wait on this replica now. */
    public int freeWaits(String tenant) {
        return waitPlaces(tenant).getMetrics().getAvailableConcurrentCalls();
    }

    private Bulkhead waitPlaces(String tenant) {
        return waits.computeIfAbsent(
                tenant, t -> bulkhead("waits-" + t, limits(t).concurrentWaits()));
    }

    /** How many more runs of {@code tenant} may start now. */
    public int freeSlots(String tenant) {
        return bulkhead(tenant).getMetrics().getAvailableConcurrentCalls();
    }

    private Bulkhead bulkhead(String tenant) {
        return bulkheads.computeIfAbsent(
                tenant, t -> bulkhead("runs-" + t, limits(t).concurrentRuns()));
    }

    /** At most {@code size} holders at once; a caller past that is refused, never queued. */
    private static Bulkhead bulkhead(String name, int size) {
        return Bulkhead.of(
                name,
                BulkheadConfig.custom()
                        .maxConcurrentCalls(size)
                        .maxWaitDuration(Duration.ZERO)
                        .build());
    }

    private AgentSettings.Limits limits(String tenant) {
        return properties.tenant(tenant).limits();
    }

    /** One execution slot or place to wait; releasing it twice is harmless. */
    public static final class Permit implements AutoCloseable {

        private final Bulkhead bulkhead;
        private boolean released;

        private Permit(Bulkhead bulkhead) {
            this.bulkhead = bulkhead;
        }

        @Override
        public synchronized void close() {
            if (!released) {
                released = true;
                bulkhead.onComplete();
            }
        }
    }
}
