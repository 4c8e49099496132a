package dev.airlock.gateway.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The gateway's clock in tests: the system clock plus an offset that a test can move forward
 * (and must {@linkplain #reset() reset} when it is done, as the context is shared).
 */
public final class MovableClock extends Clock {

    private final AtomicReference<Duration> offset;
    private final ZoneId zone;

    /** The system clock in UTC, not moved. */
    public MovableClock() {
        this(new AtomicReference<>(Duration.ZERO), ZoneOffset.UTC);
    }

    private MovableClock(AtomicReference<Duration> offset, ZoneId zone) {
        this.offset = offset;
        this.zone = zone;
    }

    /** Moves the clock forward by {@code amount}. */
    public void advance(Duration amount) {
        offset.updateAndGet(o -> o.plus(amount));
    }

    /** Back to the system time. */
    public void reset() {
        offset.set(Duration.ZERO);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset.get());
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /** The same moving clock seen in another zone: moving either moves both. */
    @Override
    public Clock withZone(ZoneId other) {
        return new MovableClock(offset, other);
    }

    /** Registers the movable clock as the gateway's clock. */
    @TestConfiguration(proxyBeanMethods = false)
    public static class Configuration {

        @Bean
        @Primary
        MovableClock movableClock() {
            return new MovableClock();
        }
    }
}
