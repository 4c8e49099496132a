package dev.airlock.egress;

import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * How Airlock talks to one upstream.
 *
 * @param allowPrivateNetwork whether the upstream may be reached on a non-public address (loopback,
 *                            private, link-local, shared ranges)
 * @param tls                 the TLS context to trust the upstream's certificate with (a private CA), or
 *                            null for the JDK's default trust
 * @param timeout             one attempt's time limit, from connecting to the end of the response
 * @param maxResponseBytes    the most bytes of a response body read; past it the connection is cut
 * @param breaker             the circuit breaker
 * @param retry               the retry of idempotent requests
 * @param maxConcurrentCalls  calls to the upstream in flight at once on one replica (a bulkhead)
 */
public record UpstreamPolicy(
        boolean allowPrivateNetwork,
        @Nullable SSLContext tls,
        Duration timeout,
        long maxResponseBytes,
        Breaker breaker,
        RetryPolicy retry,
        int maxConcurrentCalls) {

    public UpstreamPolicy {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (maxResponseBytes < 0) {
            throw new IllegalArgumentException("max-response-bytes must not be negative");
        }
        if (maxConcurrentCalls < 1) {
            throw new IllegalArgumentException("max-concurrent-calls must be at least 1");
        }
    }

    /**
     * The circuit breaker: it opens when, over the last {@code slidingWindowSize} calls (and at least
     * {@code minimumNumberOfCalls}), the share of failures or of slow calls reaches its threshold; an
     * open breaker refuses calls at once for {@code waitInOpenState}, then lets a few through.
     *
     * @param failureRateThreshold      percentage of failed calls (connection failures, time-outs, 5xx answers)
     * @param slowCallDurationThreshold a call at least this long is slow
     * @param slowCallRateThreshold     percentage of slow calls
     * @param minimumNumberOfCalls      calls needed before the rates count
     * @param slidingWindowSize         calls the rates are computed over
     * @param waitInOpenState           how long an open breaker refuses calls
     */
    public record Breaker(
            float failureRateThreshold,
            Duration slowCallDurationThreshold,
            float slowCallRateThreshold,
            int minimumNumberOfCalls,
            int slidingWindowSize,
            Duration waitInOpenState) {}

    /**
     * Retries of idempotent requests after a connection failure, a time-out or a 502, 503 or 504
     * answer, with exponential backoff.
     *
     * @param maxAttempts attempts in all, the first included (1: no retry)
     * @param backoff     the wait before the second attempt; each later wait doubles
     */
    public record RetryPolicy(int maxAttempts, Duration backoff) {}
}
