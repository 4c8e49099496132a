package dev.airlock.egress;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedRetryMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedTimeLimiterMetrics;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The Resilience4j registries of every upstream, bound to Micrometer so that each upstream's
 * breaker, retry, bulkhead and time limiter report as {@code resilience4j_*} meters tagged with the
 * upstream's name.
 */
final class Resilience {

    /** An outcome that another attempt may improve on. */
    interface Retryable {
        boolean retryable();
    }

    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    private final RetryRegistry retries = RetryRegistry.ofDefaults();
    private final BulkheadRegistry bulkheads = BulkheadRegistry.ofDefaults();
    private final TimeLimiterRegistry timeLimiters = TimeLimiterRegistry.ofDefaults();

    Resilience(@Nullable MeterRegistry meters) {
        if (meters != null) {
            TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(meters);
            TaggedRetryMetrics.ofRetryRegistry(retries).bindTo(meters);
            TaggedBulkheadMetrics.ofBulkheadRegistry(bulkheads).bindTo(meters);
            TaggedTimeLimiterMetrics.ofTimeLimiterRegistry(timeLimiters).bindTo(meters);
        }
    }

    CircuitBreaker breaker(String name, UpstreamPolicy.Breaker policy) {
        return breakers.circuitBreaker(
                name,
                CircuitBreakerConfig.custom()
                        .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                        .slidingWindowSize(policy.slidingWindowSize())
                        .minimumNumberOfCalls(policy.minimumNumberOfCalls())
                        .failureRateThreshold(policy.failureRateThreshold())
                        .slowCallDurationThreshold(policy.slowCallDurationThreshold())
                        .slowCallRateThreshold(policy.slowCallRateThreshold())
                        .waitDurationInOpenState(policy.waitInOpenState())
                        .permittedNumberOfCallsInHalfOpenState(Math.max(1, Math.min(3, policy.minimumNumberOfCalls())))
                        .automaticTransitionFromOpenToHalfOpenEnabled(false)
                        .build());
    }

    Retry retry(String name, UpstreamPolicy.RetryPolicy policy) {
        return retries.retry(
                name,
                RetryConfig.custom()
                        .maxAttempts(policy.maxAttempts())
                        .intervalFunction(IntervalFunction.ofExponentialBackoff(policy.backoff(), 2.0))
                        .retryOnResult(result -> result instanceof Retryable r && r.retryable())
                        .failAfterMaxAttempts(false)
                        .build());
    }

    Bulkhead bulkhead(String name, int maxConcurrentCalls, Duration maxWait) {
        return bulkheads.bulkhead(
                name,
                BulkheadConfig.custom()
                        .maxConcurrentCalls(maxConcurrentCalls)
                        .maxWaitDuration(maxWait)
                        .build());
    }

    TimeLimiter timeLimiter(String name, Duration timeout) {
        return timeLimiters.timeLimiter(
                name,
                TimeLimiterConfig.custom()
                        .timeoutDuration(timeout)
                        .cancelRunningFuture(true)
                        .build());
    }

    /** Forgets an upstream's instances (when it is closed). */
    void remove(String name) {
        breakers.remove(name);
        retries.remove(name);
        bulkheads.remove(name);
        timeLimiters.remove(name);
    }
}
