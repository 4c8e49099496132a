package dev.airlock.kernel.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a bad {@code airlock.*} setting into a start-up report that names the key and the fix. */
class InvalidConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidConfigurationException cause) {
        return new FailureAnalysis(
                "Invalid Airlock configuration at '" + cause.key() + "': " + cause.problem(),
                "Correct '" + cause.key() + "' in your configuration (see docs/configuration.md) and start again.",
                cause);
    }
}
