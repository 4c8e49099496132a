package dev.airlock.benchmarks;

import dev.airlock.kernel.config.ApprovalMode;
import dev.airlock.rules.PolicyDecision;
import dev.airlock.rules.RuleInput;
import dev.airlock.rules.RuleSpec;
import dev.airlock.rules.ToolPolicy;
import dev.airlock.rules.ToolRules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one policy decision for a tool with 20 rules: the worst case, where no rule holds and
 * all 20 are evaluated (the tool's own settings decide), the last rule holding, and a tool without
 * rules as the baseline, in the same run.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.openjdk.jmh.Main PolicyRulesBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PolicyRulesBenchmark {

    private static final ToolPolicy DEFAULTS = new ToolPolicy(ApprovalMode.REQUIRED, 1, Duration.ofHours(1), false);

    private ToolRules twenty;
    private ToolRules none;
    private RuleInput nothingHolds;
    private RuleInput lastHolds;

    @Setup
    public void compile() {
        List<RuleSpec> rules = new ArrayList<>();
        for (int i = 0; i < 19; i++) {
            rules.add(new RuleSpec(
                    "args.namespace == \"ns-" + i + "\" && args.count > " + i
                            + " && agent.labels[\"team\"] == \"infra\" && !args.force",
                    ApprovalMode.AUTO,
                    null,
                    null,
                    null));
        }
        rules.add(new RuleSpec(
                "args.namespace.startsWith(\"dev-\") && args.count < 100", ApprovalMode.AUTO, null, null, null));
        Map<String, Class<?>> parameters =
                Map.of("namespace", String.class, "count", Long.class, "force", Boolean.class);
        twenty = ToolRules.compile("kubectl", parameters, rules, DEFAULTS, "rules");
        none = ToolRules.none(DEFAULTS);
        Instant now = Instant.parse("2026-12-01T00:00:00Z");
        nothingHolds = new RuleInput(
                Map.of("namespace", "prod", "count", 5L, "force", false),
                "bot",
                Map.of("team", "infra"),
                "acme",
                "kubectl",
                now);
        lastHolds = new RuleInput(
                Map.of("namespace", "dev-a", "count", 5L, "force", false),
                "bot",
                Map.of("team", "infra"),
                "acme",
                "kubectl",
                now);
    }

    @Benchmark
    public PolicyDecision twentyRulesNoneHolds() {
        return twenty.decide(nothingHolds);
    }

    @Benchmark
    public PolicyDecision twentyRulesTheLastHolds() {
        return twenty.decide(lastHolds);
    }

    @Benchmark
    public PolicyDecision noRules() {
        return none.decide(nothingHolds);
    }
}
