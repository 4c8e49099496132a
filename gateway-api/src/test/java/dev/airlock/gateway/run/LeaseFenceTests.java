package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.SettingsConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** When a run must stop, or may not start, because its lease went unwritten; and a schedule that leaves no margin. */
class LeaseFenceTests {

    private static final long SECOND = 1_000_000_000L;
    private static final UUID RUN = UUID.fromString("01a23c0b-8041-709a-a938-efea7254c7a0");

    /** A 30 s lease checked every 0.5 s: a run lapses 24.5 s after the statement that last wrote its lease began. */
    @ParameterizedTest(name = "claimed at {0} s, renewed at {1} s, now {2} s: lapsed {3}")
    @CsvSource({
        "0, , 0, false",
        "0, , 24.499, false",
        "0, , 24.5, true",
        "0, 10, 34.499, false",
        "0, 10, 34.5, true",
        // A renewal that began before the claim it follows (it answered late) moves nothing back.
        "5, 2, 29, false",
        // A claim answered late: its lease ran from when its statement began.
        "-30, , 0, true"
    })
    void aRunLapsesAfterTheStatementThatLastWroteItsLease(
            double claimedAt, Double renewedAt, double now, boolean lapsed) {
        LeaseFence fence = new LeaseFence(Duration.ofSeconds(30), Duration.ofMillis(500));
        fence.claimed(RUN, nanos(claimedAt));
        if (renewedAt != null) {
            fence.renewed(List.of(RUN), nanos(renewedAt));
        }
        assertThat(fence.lapsed(RUN, nanos(now))).isEqualTo(lapsed);
        assertThat(fence.takeLapsed(nanos(now))).isEqualTo(lapsed ? List.of(RUN) : List.of());
        assertThat(fence.lapseAfter()).isEqualTo(Duration.ofMillis(24_500));
    }

    @Test
    void eachRunIsTimedOnItsOwnAndALapsedOneIsTakenOnce() {
        LeaseFence fence = new LeaseFence(Duration.ofSeconds(6), Duration.ofMillis(500));
        UUID old = UUID.randomUUID();
        UUID fresh = UUID.randomUUID();
        fence.claimed(old, 0);
        fence.claimed(fresh, 4 * SECOND);
        assertThat(fence.takeLapsed(5 * SECOND)).containsExactly(old);
        assertThat(fence.takeLapsed(5 * SECOND)).as("taken already").isEmpty();
        assertThat(fence.lapsed(old, 5 * SECOND))
                .as("stopped: it may not start either")
                .isTrue();
        assertThat(fence.lapsed(fresh, 5 * SECOND)).isFalse();
        fence.renewed(List.of(old), 5 * SECOND);
        assertThat(fence.lapsed(old, 5 * SECOND))
                .as("a renewal brings no stopped run back")
                .isTrue();
        fence.released(fresh);
        assertThat(fence.lapsed(fresh, 5 * SECOND)).as("not registered here").isTrue();
    }

    @Test
    void worksAcrossTheMonotonicClocksWrapAround() {
        LeaseFence fence = new LeaseFence(Duration.ofSeconds(6), Duration.ofMillis(500));
        fence.claimed(RUN, Long.MAX_VALUE - SECOND);
        fence.renewed(List.of(RUN), Long.MAX_VALUE);
        assertThat(fence.lapsed(RUN, Long.MIN_VALUE + 3 * SECOND)).isFalse();
        assertThat(fence.lapsed(RUN, Long.MIN_VALUE + 5 * SECOND)).isTrue();
    }

    @Configuration(proxyBeanMethods = false)
    @Import({SettingsConfiguration.class, LeaseFence.class})
    @EnableConfigurationProperties(AgentSettings.class)
    static class Bound {}

    @ParameterizedTest(name = "{0}, {1}, {2}: refused for {3}")
    @CsvSource({
        "PT3S, PT0.5S, PT10M, airlock.executor.lease-check-interval",
        "PT6S, PT0.6S, PT10M, airlock.executor.lease-check-interval",
        "PT1M, PT0.5S, PT30S, airlock.executor.spool-lease-limit"
    })
    void leaseSettingsThatLeaveTheFenceNoMarginStopTheStartNamingTheKey(
            String ttl, String interval, String spoolLimit, String key) {
        new ApplicationContextRunner()
                .withUserConfiguration(Bound.class)
                .withPropertyValues(
                        "airlock.executor.lease-ttl=" + ttl,
                        "airlock.executor.lease-check-interval=" + interval,
                        "airlock.executor.spool-lease-limit=" + spoolLimit)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .isInstanceOf(InvalidConfigurationException.class)
                            .hasMessageContaining(key)
                            .hasMessageContaining(ttl);
                });
    }

    @Test
    void theDefaultsAndSettingsAtTheLimitsStart() {
        ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Bound.class);
        runner.run(context -> assertThat(context).hasNotFailed());
        runner.withPropertyValues(
                        "airlock.executor.lease-ttl=PT6S",
                        "airlock.executor.lease-check-interval=PT0.5S",
                        "airlock.executor.spool-lease-limit=PT6S")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aRenewalIsDueAtOnceOnlyForARunArrivedWithAnOldLeaseThatNoRenewalWasAnsweredAbout() {
        LeaseFence fence = new LeaseFence(Duration.ofSeconds(30), Duration.ofMillis(500));
        assertThat(fence.dueForRenewal(100 * SECOND)).as("nothing registered").isFalse();
        fence.claimed(RUN, 10 * SECOND);
        assertThat(fence.dueForRenewal(10 * SECOND)).isFalse();
        assertThat(fence.dueForRenewal(11 * SECOND)).as("claimed before then").isTrue();
        // A renewal passed over its row (another transaction held it): the next regular renewal tries again.
        fence.tried(List.of(RUN));
        assertThat(fence.dueForRenewal(11 * SECOND)).isFalse();
        UUID late = UUID.randomUUID();
        fence.claimed(late, 5 * SECOND);
        assertThat(fence.dueForRenewal(11 * SECOND)).isTrue();
        fence.released(late);
        assertThat(fence.dueForRenewal(11 * SECOND)).isFalse();
    }

    private static long nanos(double seconds) {
        return Math.round(seconds * SECOND);
    }
}
