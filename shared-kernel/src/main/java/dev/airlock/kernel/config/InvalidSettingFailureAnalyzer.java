package dev.airlock.kernel.config;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a setting that breaks a constraint of its record (a {@code @Min}, a
 * {@code @DurationMin}) in the same words as every other bad setting: the key as it is written,
 * then the problem.
 */
@org.springframework.core.annotation.Order(org.springframework.core.Ordered.HIGHEST_PRECEDENCE)
class InvalidSettingFailureAnalyzer extends AbstractFailureAnalyzer<BindValidationException> {

    private final InvalidConfigurationFailureAnalyzer words = new InvalidConfigurationFailureAnalyzer();

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindValidationException cause) {
        if (!cause.getValidationErrors().getName().toString().startsWith("airlock")) {
            return null;
        }
        return words.analyze(rootFailure, InvalidConfigurationException.of(cause));
    }
}
