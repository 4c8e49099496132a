package dev.airlock.gateway.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.kernel.config.ApprovalMode;
import dev.airlock.rules.ToolPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class PolicyEvaluatorTests {

    private final Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
    private final PolicyEvaluator evaluator = new PolicyEvaluator(clock);

    @Test
    void autoPolicyLetsTheRunExecute() {
        assertThat(evaluator.evaluate(ToolPolicy.of(ApprovalMode.AUTO))).isEqualTo(new PolicyVerdict.Auto());
    }

    @Test
    void denyPolicyRefusesTheRun() {
        assertThat(evaluator.evaluate(ToolPolicy.of(ApprovalMode.DENY))).isEqualTo(new PolicyVerdict.Deny());
    }

    @Test
    void requiredPolicyNamesApproversAndExpiry() {
        ToolPolicy policy = new ToolPolicy(ApprovalMode.REQUIRED, 2, Duration.ofMinutes(30), false);
        assertThat(evaluator.evaluate(policy))
                .isEqualTo(new PolicyVerdict.Required(2, Instant.parse("2026-11-29T12:30:00Z")));
    }

    @Test
    void rejectsPolicyWithoutApproversOrTimeout() {
        assertThatThrownBy(() -> new ToolPolicy(ApprovalMode.REQUIRED, 0, Duration.ofHours(1), false))
                .hasMessageContaining("approvers");
        assertThatThrownBy(() -> new ToolPolicy(ApprovalMode.REQUIRED, 1, Duration.ZERO, false))
                .hasMessageContaining("approval-timeout");
    }
}
