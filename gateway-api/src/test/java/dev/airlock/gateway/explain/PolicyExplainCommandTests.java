package dev.airlock.gateway.explain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The explain command, through its real entry point, on the tests' configuration: no database, nothing runs. */
class PolicyExplainCommandTests {

    private record Outcome(int status, String out, String err) {}

    private static Outcome explain(String... more) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = new String[more.length + 1];
        args[0] = "--spring.profiles.active=test";
        System.arraycopy(more, 0, args, 1, more.length);
        int status = PolicyExplainCommand.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void saysWhichRuleDecidesACall() {
        Outcome prod = explain(
                "--airlock.policy.explain=ops/kubectl",
                "--airlock.policy.agent=night-bot",
                "--airlock.policy.arguments={\"namespace\":\"prod\",\"verb\":\"get\"}");
        assertThat(prod.status()).as(prod.err()).isZero();
        JsonNode answer = JsonMapper.builder().build().readTree(prod.out());
        assertThat(answer.path("decision").asString()).isEqualTo("REQUIRED");
        assertThat(answer.path("approvers").asInt()).isEqualTo(2);
        assertThat(answer.path("approveReasonRequired").asBoolean()).isTrue();
        assertThat(answer.path("rule").asString()).isEqualTo("rule 1: args.namespace == \"prod\"");
        assertThat(answer.path("arguments").path("count").asLong())
                .as("defaults filled in")
                .isEqualTo(1);

        Outcome oncall = explain(
                "--airlock.policy.explain=ops/kubectl",
                "--airlock.policy.agent=ops-bot",
                "--airlock.policy.arguments={\"namespace\":\"staging\",\"verb\":\"get\"}");
        assertThat(JsonMapper.builder()
                        .build()
                        .readTree(oncall.out())
                        .path("decision")
                        .asString())
                .isEqualTo("AUTO");
    }

    @Test
    void refusesWhatAnAgentCouldNotAskEither() {
        Outcome hidden = explain("--airlock.policy.explain=ops/kubectl", "--airlock.policy.agent=intern-bot");
        assertThat(hidden.status()).isEqualTo(2);
        assertThat(hidden.err()).contains("has no tool 'kubectl'");
        Outcome bad = explain(
                "--airlock.policy.explain=ops/kubectl",
                "--airlock.policy.agent=ops-bot",
                "--airlock.policy.arguments={\"namespace\":\"Prod!\",\"verb\":\"get\"}");
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).contains("arguments.namespace");
        Outcome typo = explain("--airlock.policy.explain=ops/kubectl", "--airlock.policy.agnet=ops-bot");
        assertThat(typo.status()).isEqualTo(1);
        assertThat(typo.err()).contains("airlock.policy.agnet");
    }

    @Test
    void aServerGivenTheCommandsSettingInItsConfigurationRefusesToStart() {
        dev.airlock.gateway.settings.AgentSettings settings = dev.airlock.kernel.config.SettingsBinder.bind(
                java.util.List.of(new org.springframework.boot.context.properties.source.MapConfigurationPropertySource(
                        java.util.Map.of("airlock.policy.explain", "ops/kubectl"))),
                dev.airlock.gateway.settings.AgentSettings.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ExplainIsACommand(settings))
                .isInstanceOf(dev.airlock.kernel.config.InvalidConfigurationException.class)
                .hasMessageStartingWith("airlock.policy.explain");
        new ExplainIsACommand(dev.airlock.kernel.config.SettingsBinder.bind(
                java.util.List.of(new org.springframework.boot.context.properties.source.MapConfigurationPropertySource(
                        java.util.Map.of())),
                dev.airlock.gateway.settings.AgentSettings.class));
    }
}
