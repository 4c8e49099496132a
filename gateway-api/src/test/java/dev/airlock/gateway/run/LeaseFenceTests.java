package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.SettingsConfiguration;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** When a replica must stop its runs because its leases went unrenewed, and a schedule that would lapse them. */
class LeaseFenceTests {

    private static final long SECOND = 1_000_000_000L;

    /** A 30 s lease: the fence lapses 25 s after the start of the last renewal that succeeded. */
    @ParameterizedTest(name = "renewed at {0} s, now {1} s: lapsed {2}")
    @CsvSource({
        "0, 0, false",
        "0, 24.999, false",
        "0, 25, true",
        "0, 29, true",
        "10, 34, false",
        "10, 35, true",
        // A renewal that began earlier than the last one confirmed (it hung, and answered late) moves nothing back.
        "-5, 24, false"
    })
    void lapsesFiveSixthsOfTheLeaseAfterTheLastRenewalBegan(double renewedAt, double now, boolean lapsed) {
        LeaseFence fence = new LeaseFence(Duration.ofSeconds(30), 0);
        fence.confirmed(nanos(renewedAt));
        assertThat(fence.lapsed(nanos(now))).isEqualTo(lapsed);
        assertThat(fence.lapseAfter()).isEqualTo(Duration.ofSeconds(25));
    }

    @Test
    void timesFromStartUpUntilTheFirstRenewal() {
        LeaseFence fence = new LeaseFence(Duration.ofSeconds(6), 100 * SECOND);
        assertThat(fence.lapsed(104 * SECOND)).isFalse();
        assertThat(fence.lapsed(105 * SECOND)).isTrue();
    }

    @Test
    void worksAcrossTheMonotonicClocksWrapAround() {
        LeaseFence fence = new LeaseFence(Duration.ofSeconds(6), Long.MAX_VALUE - SECOND);
        fence.confirmed(Long.MAX_VALUE);
        assertThat(fence.lapsed(Long.MIN_VALUE + 3 * SECOND)).isFalse();
        assertThat(fence.lapsed(Long.MIN_VALUE + 5 * SECOND)).isTrue();
    }

    @Configuration(proxyBeanMethods = false)
    @Import({SettingsConfiguration.class, LeaseFence.class})
    @EnableConfigurationProperties(AgentSettings.class)
    static class Bound {}

    @Test
    void aCheckIntervalLongerThanASixthOfTheLeaseStopsTheStartNamingIt() {
        ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Bound.class);
        runner.withPropertyValues("airlock.executor.lease-ttl=PT3S", "airlock.executor.lease-check-interval=PT0.6S")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .isInstanceOf(InvalidConfigurationException.class)
                            .hasMessageContaining("airlock.executor.lease-check-interval")
                            .hasMessageContaining("PT3S");
                });
        runner.withPropertyValues("airlock.executor.lease-ttl=PT3S", "airlock.executor.lease-check-interval=PT0.5S")
                .run(context -> assertThat(context).hasNotFailed());
        runner.run(context -> assertThat(context).hasNotFailed());
    }

    private static long nanos(double seconds) {
        return Math.round(seconds * SECOND);
    }
}
