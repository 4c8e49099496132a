package dev.airlock.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.kernel.config.ApprovalMode;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.ReasonPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Policy rules: decisions for arguments, refusals at start-up, and the fail-closed path. */
class ToolRulesTests {

    private static final ToolPolicy DEFAULTS = new ToolPolicy(ApprovalMode.REQUIRED, 1, Duration.ofHours(1), false);
    private static final Map<String, Class<?>> PARAMETERS =
            Map.of("namespace", String.class, "count", Long.class, "force", Boolean.class);
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    private static RuleSpec rule(String when, ApprovalMode approval) {
        return new RuleSpec(when, approval, null, null, null);
    }

    private static final List<RuleSpec> KUBECTL = List.of(
            new RuleSpec("args.namespace == \"prod\"", ApprovalMode.REQUIRED, 2, ReasonPolicy.REQUIRED, null),
            rule("args.count > 100", ApprovalMode.DENY),
            rule("args.namespace.startsWith(\"dev-\") && !args.force", ApprovalMode.AUTO),
            rule("\"oncall\" in agent.labels && agent.labels[\"oncall\"] == \"true\"", ApprovalMode.AUTO));

    private static PolicyDecision decide(
            List<RuleSpec> rules, String namespace, long count, boolean force, Map<String, String> labels) {
        ToolRules compiled =
                ToolRules.compile("kubectl", PARAMETERS, rules, DEFAULTS, "airlock.tenants.acme.tools.kubectl.rules");
        return compiled.decide(new RuleInput(
                Map.of("namespace", namespace, "count", count, "force", force), "bot", labels, "acme", "kubectl", NOW));
    }

    @ParameterizedTest(name = "{0} count={1} force={2} oncall={3} -> {4} by {5}")
    @CsvSource(delimiter = '|', textBlock = """
            prod        | 1   | false | false | REQUIRED | 1
            prod        | 500 | false | false | REQUIRED | 1
            staging     | 500 | false | false | DENY     | 2
            dev-alice   | 3   | false | false | AUTO     | 3
            dev-alice   | 3   | true  | false | REQUIRED |
            staging     | 3   | false | true  | AUTO     | 4
            staging     | 3   | false | false | REQUIRED |
            """)
    void theFirstRuleThatHoldsDecides(
            String namespace, long count, boolean force, boolean oncall, ApprovalMode mode, Integer rule) {
        PolicyDecision decision =
                decide(KUBECTL, namespace, count, force, oncall ? Map.of("oncall", "true") : Map.of());
        assertThat(decision.policy().mode()).isEqualTo(mode);
        assertThat(decision.ruleIndex()).isEqualTo(rule);
        assertThat(decision.failure()).isNull();
        assertThat(decision.rule())
                .isEqualTo(
                        rule == null
                                ? "the tool's own settings"
                                : "rule " + rule + ": " + KUBECTL.get(rule - 1).when());
    }

    @Test
    void aRulesUnsetSettingsAreTheTools() {
        PolicyDecision prod = decide(KUBECTL, "prod", 1, false, Map.of());
        assertThat(prod.policy().approvers()).isEqualTo(2);
        assertThat(prod.policy().approveReasonRequired()).isTrue();
        assertThat(prod.policy().approvalTimeout()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void aRuleThatCannotBeEvaluatedDeniesAndSaysWhy() {
        List<RuleSpec> rules = List.of(rule("100 / (args.count - 7) > 1", ApprovalMode.AUTO));
        PolicyDecision decision = decide(rules, "prod", 7, false, Map.of());
        assertThat(decision.policy().mode()).isEqualTo(ApprovalMode.DENY);
        assertThat(decision.failure()).startsWith("rule 1 could not be evaluated");
        assertThat(decision.rule())
                .startsWith("none: rule 1 could not be evaluated")
                .endsWith("(denied)");
        List<RuleSpec> missingLabel = List.of(rule("agent.labels[\"team\"] == \"infra\"", ApprovalMode.AUTO));
        assertThat(decide(missingLabel, "prod", 1, false, Map.of()).policy().mode())
                .as("a label the agent does not have is a failure, and so a denial, never a pass")
                .isEqualTo(ApprovalMode.DENY);
    }

    @Test
    void anArgumentOfAnotherTypeThanTheRulesReadDeniesBeforeAnyRuleIsEvaluated() {
        // CEL compares an integer past 64 bits with an int as unequal, without an error: the rule
        // that refuses 0 would not hold for 2^64, which a server reading 64 bits takes for 0.
        List<RuleSpec> rules = List.of(rule("args.count == 0", ApprovalMode.DENY));
        ToolRules compiled = ToolRules.compile("scale", PARAMETERS, rules, DEFAULTS, "k.rules");
        Map<String, Object> args = Map.of("namespace", "dev", "count", java.math.BigInteger.ONE.shiftLeft(64));
        PolicyDecision decision = compiled.decide(new RuleInput(args, "bot", Map.of(), "acme", "scale", NOW));
        assertThat(decision.policy().mode()).isEqualTo(ApprovalMode.DENY);
        assertThat(decision.failure())
                .isEqualTo("argument count is not an integer of at most 64 bits, which the rules read it as");
        assertThat(compiled.decide(new RuleInput(
                                Map.of("namespace", 7L, "count", 1L), "bot", Map.of(), "acme", "scale", NOW))
                        .failure())
                .isEqualTo("argument namespace is not a string, which the rules read it as");
        assertThat(compiled.decide(new RuleInput(
                                Map.of("namespace", "dev", "count", 3L), "bot", Map.of(), "acme", "scale", NOW))
                        .policy()
                        .mode())
                .as("an argument of its type, left to the rules")
                .isEqualTo(ApprovalMode.REQUIRED);
    }

    @Test
    void matchesHoldsForTheWholeStringAsAParametersPatternDoes() {
        List<RuleSpec> rules = List.of(rule("args.namespace.matches(\"dev-[a-z0-9-]+\")", ApprovalMode.AUTO));
        assertThat(decide(rules, "dev-1", 1, false, Map.of()).ruleIndex()).isEqualTo(1);
        assertThat(decide(rules, "prod-dev-1", 1, false, Map.of()).ruleIndex())
                .as("a match inside the string is no match")
                .isNull();
    }

    @Test
    void aRuleCanCompareANormalisedValueSoThatCaseAndBlanksDoNotSlipPastARefusal() {
        List<RuleSpec> rules = List.of(
                rule("args.namespace.trim().lowerAscii() == \"secrets\"", ApprovalMode.DENY),
                rule(
                        "args.namespace.indexOf(\"-\") == 3 && args.namespace.substring(0, 3) == \"dev\"",
                        ApprovalMode.AUTO));
        assertThat(decide(rules, " Secrets ", 1, false, Map.of()).policy().mode())
                .isEqualTo(ApprovalMode.DENY);
        assertThat(decide(rules, "SECRETS", 1, false, Map.of()).policy().mode()).isEqualTo(ApprovalMode.DENY);
        assertThat(decide(rules, "dev-1", 1, false, Map.of()).ruleIndex()).isEqualTo(2);
        assertThat(decide(rules, "prod", 1, false, Map.of()).ruleIndex()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            replace, which can grow a string   | args.namespace.replace("a", "aaaa") == "x"
            split, which makes lists           | size(args.namespace.split("-")) > 1
            join                               | ["a", "b"].join("-") == "a-b"
            format                             | "%s".format([args.namespace]) == "x"
            """)
    void theStringFunctionsThatCanGrowAValueAreNotOffered(String what, String when) {
        assertThatThrownBy(() -> ToolRules.compile(
                        "kubectl", PARAMETERS, List.of(rule(when, ApprovalMode.AUTO)), DEFAULTS, "k.rules"))
                .as(what)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith("k.rules[0].when");
    }

    @Test
    void aCommentEndingARuleCannotReachTheNext() {
        List<RuleSpec> rules = List.of(
                rule("args.namespace == \"a\" // the first", ApprovalMode.AUTO),
                rule("args.count > 100", ApprovalMode.DENY));
        assertThat(decide(rules, "b", 500, false, Map.of()).policy().mode()).isEqualTo(ApprovalMode.DENY);
        assertThat(decide(rules, "a", 500, false, Map.of()).policy().mode()).isEqualTo(ApprovalMode.AUTO);
    }

    @Test
    void seesTheTenantTheToolAndTheTime() {
        List<RuleSpec> rules = List.of(rule(
                "tenant == \"acme\" && tool == \"kubectl\" && now > timestamp(\"2026-01-01T00:00:00Z\")",
                ApprovalMode.AUTO));
        assertThat(decide(rules, "x", 1, false, Map.of()).policy().mode()).isEqualTo(ApprovalMode.AUTO);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a syntax error                  | args.namespace ==                 | rules[0].when
            an unknown identifier           | namespace == "prod"               | rules[0].when
            an unknown field                | args.namespaze == "prod"          | rules[0].when
            a type mismatch                 | args.count == "100"               | rules[0].when
            not a boolean                   | args.count + 1                    | rules[0].when
            a comprehension                 | [1, 2].all(x, x > 0)              | rules[0].when
            an empty expression             | ' '                               | rules[0].when
            """)
    void refusesAnExpressionItCannotCheckNamingTheKey(String what, String when, String key) {
        assertThatThrownBy(() -> ToolRules.compile(
                        "kubectl",
                        PARAMETERS,
                        List.of(rule(when, ApprovalMode.AUTO)),
                        DEFAULTS,
                        "airlock.tenants.acme.tools.kubectl.rules"))
                .as(what)
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).key())
                        .isEqualTo("airlock.tenants.acme.tools.kubectl." + key));
    }

    @Test
    void refusesARuleWhoseApprovalSettingsWouldNeverApply() {
        ToolPolicy auto = new ToolPolicy(ApprovalMode.AUTO, 1, Duration.ofHours(1), false);
        // Meant to ask two people in prod, it would decide 'auto' (the tool's) and hide the deny after it.
        List<RuleSpec> rules = List.of(
                new RuleSpec("args.namespace == \"prod\"", null, 2, ReasonPolicy.REQUIRED, null),
                rule("args.force", ApprovalMode.DENY));
        assertThatThrownBy(() -> ToolRules.compile("kubectl", PARAMETERS, rules, auto, "k.rules"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessage("k.rules[0]: sets approvers but its approval is auto (the tool's), so nobody is asked;"
                        + " write approval: required in the rule, or leave approvers out");
        for (RuleSpec spec : List.of(
                new RuleSpec("args.force", ApprovalMode.DENY, null, ReasonPolicy.REQUIRED, null),
                new RuleSpec("args.force", ApprovalMode.AUTO, null, null, Duration.ofMinutes(5)),
                new RuleSpec("args.force", null, null, null, null, "oncall"))) {
            assertThatThrownBy(() -> ToolRules.compile("kubectl", PARAMETERS, List.of(spec), auto, "k.rules"))
                    .as("%s", spec)
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("so nobody is asked");
        }
        // Where the rule asks, or inherits asking from the tool, the same settings are what they say.
        assertThat(ToolRules.compile(
                                "kubectl",
                                PARAMETERS,
                                List.of(new RuleSpec("args.force", ApprovalMode.REQUIRED, 2, null, null)),
                                auto,
                                "k.rules")
                        .decide(new RuleInput(
                                Map.of("namespace", "prod", "count", 1L, "force", true),
                                "bot",
                                Map.of(),
                                "acme",
                                "kubectl",
                                NOW))
                        .policy()
                        .approvers())
                .isEqualTo(2);
        ToolRules.compile(
                "kubectl", PARAMETERS, List.of(new RuleSpec("args.force", null, 2, null, null)), DEFAULTS, "k.rules");
    }

    @Test
    void refusesARuleAfterOneThatAlwaysHoldsAndAnExpressionPastTheCostLimit() {
        assertThatThrownBy(() -> ToolRules.compile(
                        "kubectl",
                        PARAMETERS,
                        List.of(rule("true", ApprovalMode.AUTO), rule("args.count > 1", ApprovalMode.DENY)),
                        DEFAULTS,
                        "k.rules"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith("k.rules[1]: can never decide");
        String long_ = "args.count > 0" + " && args.count > 0".repeat(120);
        assertThatThrownBy(() -> ToolRules.compile(
                        "kubectl", PARAMETERS, List.of(rule(long_, ApprovalMode.AUTO)), DEFAULTS, "k.rules"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith("k.rules[0].when");
    }
}
