package dev.airlock.kernel.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A broken constraint of a settings record is reported like every other bad setting: by its key as written. */
class InvalidConfigurationExceptionTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            maxText                                    | max-text
            tenants[acme].limits.concurrentRuns        | tenants.acme.limits.concurrent-runs
            tenants[acme].notifications.webhooks[2]    | tenants.acme.notifications.webhooks[2]
            tenants[acme].tools[git-log].maxRetainedBytes | tenants.acme.tools.git-log.max-retained-bytes
            """)
    void writesTheBeanPathAsTheKeyIsWritten(String beanPath, String key) {
        assertThat(InvalidConfigurationException.propertyPath(beanPath)).isEqualTo(key);
    }

    /** A record like the sides' settings: a map of tenants with a bounded value. */
    record Sample(Map<String, @Valid Tenant> tenants) {
        record Tenant(
                @DefaultValue("1") @Min(value = 1, message = "must be at least 1")
                int concurrentRuns) {}
    }

    @Test
    void bindingReportsTheKeyAndTheConstraintsMessage() {
        List<org.springframework.boot.context.properties.source.ConfigurationPropertySource> sources =
                List.of(new MapConfigurationPropertySource(Map.of("airlock.tenants.acme.concurrent-runs", "0")));
        assertThatThrownBy(() -> SettingsBinder.bind(sources, Sample.class))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessage("airlock.tenants.acme.concurrent-runs: must be at least 1");
    }

    @Test
    void theStartUpReportUsesTheSameWords() {
        List<org.springframework.boot.context.properties.source.ConfigurationPropertySource> sources =
                List.of(new MapConfigurationPropertySource(Map.of("airlock.tenants.acme.concurrent-runs", "0")));
        Throwable failure = null;
        try {
            new org.springframework.boot.context.properties.bind.Binder(sources)
                    .bind(
                            "airlock",
                            org.springframework.boot.context.properties.bind.Bindable.of(Sample.class),
                            new org.springframework.boot.context.properties.bind.validation.ValidationBindHandler(
                                    validator()));
        } catch (RuntimeException e) {
            failure = e;
        }
        FailureAnalysis analysis = new InvalidSettingFailureAnalyzer().analyze(failure);
        assertThat(analysis.getDescription())
                .isEqualTo(
                        "Invalid Airlock configuration at 'airlock.tenants.acme.concurrent-runs': must be at least 1");
    }

    private static org.springframework.validation.beanvalidation.LocalValidatorFactoryBean validator() {
        var validator = new org.springframework.validation.beanvalidation.LocalValidatorFactoryBean();
        validator.afterPropertiesSet();
        return validator;
    }
}
