package dev.airlock.rules;

import com.google.common.collect.ImmutableSet;
import com.google.protobuf.Timestamp;
import dev.airlock.kernel.config.ApprovalMode;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.ReasonPolicy;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelStringExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A tool's policy rules, compiled and type-checked at start-up: each {@code when} is a CEL
 * expression that must be a boolean over {@code args} (a record whose fields are the tool's
 * parameters, with their types), {@code agent} ({@code name}, {@code labels}), {@code tenant},
 * {@code tool} and {@code now} (a timestamp). The first rule whose expression holds decides; when
 * none does, the tool's own settings do. A rule that cannot be evaluated for a request decides
 * deny, naming why: never the permissive path. Expressions are bounded ({@link #MAX_LENGTH}
 * characters, {@link #MAX_NODES} nodes, no comprehension macros), so a decision costs time linear
 * in a small bound. Thread-safe.
 */
public final class ToolRules {

    /** The longest expression accepted, in characters. */
    public static final int MAX_LENGTH = 1000;
    /** The most syntax nodes an expression may have: its cost bound. */
    public static final int MAX_NODES = 200;

    /** The most rules one tool may have. */
    public static final int MAX_RULES = 64;

    /**
     * The functions of CEL's strings extension a rule may call: none makes a string longer than its
     * input ({@code replace}, {@code join}, {@code split}, {@code format}, {@code quote} and
     * {@code reverse} are left out).
     */
    private static final CelStringExtensions STRINGS = CelExtensions.strings(
            CelStringExtensions.Function.LOWER_ASCII,
            CelStringExtensions.Function.UPPER_ASCII,
            CelStringExtensions.Function.TRIM,
            CelStringExtensions.Function.INDEX_OF,
            CelStringExtensions.Function.LAST_INDEX_OF,
            CelStringExtensions.Function.CHAR_AT,
            CelStringExtensions.Function.SUBSTRING);

    /** The rules of a tool that has none. */
    public static ToolRules none(ToolPolicy defaults) {
        return new ToolRules(List.of(), defaults, Map.of(), null);
    }

    private record Compiled(int index, String when, ToolPolicy policy, CelRuntime.Program program) {}

    private final List<Compiled> rules;
    private final ToolPolicy defaults;
    /** The parameters rules read, and the Java type each must have (a value of another is a failure). */
    private final Map<String, Class<?>> parameters;
    /**
     * Every rule in one program, {@code r1 ? 1 : (r2 ? 2 : … : 0)}: one evaluation per request,
     * stopping at the first rule that holds; an error in a rule reached is the program's error, as
     * it would be rule by rule.
     */
    private final CelRuntime.@Nullable Program all;

    private ToolRules(
            List<Compiled> rules,
            ToolPolicy defaults,
            Map<String, Class<?>> parameters,
            CelRuntime.@Nullable Program all) {
        this.rules = List.copyOf(rules);
        this.defaults = defaults;
        // In name order: with several mistyped arguments, the same one is named every time.
        this.parameters = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(parameters));
        this.all = all;
    }

    /**
     * Compiles {@code specs}.
     *
     * @param parameters the tool's parameters and their Java types (String, Long or Boolean)
     * @param key        the configuration key of the tool's {@code rules}
     * @throws InvalidConfigurationException naming the rule that cannot be honoured
     */
    public static ToolRules compile(
            String tool, Map<String, Class<?>> parameters, List<RuleSpec> specs, ToolPolicy defaults, String key) {
        if (specs.isEmpty()) {
            return none(defaults);
        }
        if (specs.size() > MAX_RULES) {
            throw new InvalidConfigurationException(key, "at most " + MAX_RULES + " rules, not " + specs.size());
        }
        Cel cel = environment(tool, parameters, MAX_NODES, 32);
        List<Compiled> compiled = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            RuleSpec spec = specs.get(i);
            String where = key + "[" + i + "]";
            String when = spec.when() == null ? "" : spec.when().strip();
            if (when.isEmpty()) {
                throw new InvalidConfigurationException(
                        where + ".when", "must be a CEL expression (write true for a catch-all)");
            }
            if (when.length() > MAX_LENGTH) {
                throw new InvalidConfigurationException(
                        where + ".when", "is longer than " + MAX_LENGTH + " characters");
            }
            if (!compiled.isEmpty() && compiled.getLast().when().equals("true")) {
                throw new InvalidConfigurationException(
                        where, "can never decide: rule " + compiled.size() + " before it always holds");
            }
            CelAbstractSyntaxTree ast;
            try {
                CelValidationResult result = cel.compile(when);
                ast = result.getAst();
            } catch (CelValidationException e) {
                throw new InvalidConfigurationException(
                        where + ".when", "is not a valid rule: " + oneLine(e.getMessage()));
            } catch (RuntimeException e) {
                throw new InvalidConfigurationException(
                        where + ".when", "is not a valid rule: " + oneLine(e.getMessage()));
            }
            if (!ast.getResultType().equals(SimpleType.BOOL)) {
                throw new InvalidConfigurationException(
                        where + ".when",
                        "must be a boolean expression, not "
                                + ast.getResultType().name());
            }
            ApprovalMode mode = spec.approval() == null ? defaults.mode() : spec.approval();
            checkApprovalSettings(spec, defaults.mode(), where);
            ToolPolicy policy;
            try {
                policy = new ToolPolicy(
                        mode,
                        spec.approvers() == null ? defaults.approvers() : spec.approvers(),
                        spec.approvalTimeout() == null ? defaults.approvalTimeout() : spec.approvalTimeout(),
                        spec.reason() == null
                                ? defaults.approveReasonRequired()
                                : spec.reason() == ReasonPolicy.REQUIRED,
                        spec.notifyGroup() == null ? defaults.notifyGroup() : spec.notifyGroup());
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationException(where, String.valueOf(e.getMessage()));
            }
            try {
                compiled.add(new Compiled(i + 1, when, policy, cel.createProgram(ast)));
            } catch (CelEvaluationException e) {
                throw new InvalidConfigurationException(
                        where + ".when", "cannot be evaluated: " + oneLine(e.getMessage()));
            }
        }
        StringBuilder chain = new StringBuilder();
        for (Compiled rule : compiled) {
            // Each rule on lines of its own, so that a comment ending one rule cannot reach into the next.
            chain.append("(\n")
                    .append(rule.when())
                    .append("\n) ? ")
                    .append(rule.index())
                    .append(" : (");
        }
        chain.append('0').append(")".repeat(compiled.size()));
        Cel combined = environment(tool, parameters, (MAX_NODES + 4) * compiled.size() + 8, 32 + 2 * compiled.size())
                .toCelBuilder()
                .setResultType(SimpleType.INT)
                .build();
        try {
            return new ToolRules(
                    compiled,
                    defaults,
                    parameters,
                    combined.createProgram(combined.compile(chain.toString()).getAst()));
        } catch (CelValidationException | CelEvaluationException e) {
            throw new IllegalStateException(
                    "rules that compile one by one did not compile together: " + e.getMessage(), e);
        }
    }

    /** The tool's own settings, which decide when no rule holds. */
    public ToolPolicy defaults() {
        return defaults;
    }

    /** The rules as recorded with each run's tool definition: each expression and the policy it sets. */
    public List<Map<String, Object>> definition() {
        return rules.stream()
                .map(r -> {
                    Map<String, Object> rule = new LinkedHashMap<>();
                    rule.put("when", r.when());
                    rule.put("approval", r.policy().mode().name());
                    rule.put("approvers", r.policy().approvers());
                    rule.put("approvalTimeout", r.policy().approvalTimeout().toString());
                    rule.put("approveReasonRequired", r.policy().approveReasonRequired());
                    if (r.policy().notifyGroup() != null) {
                        rule.put("notify", r.policy().notifyGroup());
                    }
                    return rule;
                })
                .toList();
    }

    /** How many rules there are. */
    public int size() {
        return rules.size();
    }

    /** The policy {@code input} gets: the first rule that holds, the tool's own settings when none does, deny on a failure. */
    public PolicyDecision decide(RuleInput input) {
        if (rules.isEmpty() || all == null) {
            return new PolicyDecision(defaults, null, null, null);
        }
        String mistyped = mistyped(input.args());
        if (mistyped != null) {
            return denied(mistyped);
        }
        Map<String, Object> variables = Map.of(
                "args", input.args(),
                "agent", Map.of("name", input.agent(), "labels", input.labels()),
                "tenant", input.tenant(),
                "tool", input.tool(),
                "now",
                        Timestamp.newBuilder()
                                .setSeconds(input.now().getEpochSecond())
                                .setNanos(input.now().getNano())
                                .build());
        try {
            Object decided = all.eval(variables);
            if (decided instanceof Long index) {
                if (index == 0) {
                    return new PolicyDecision(defaults, null, null, null);
                }
                Compiled rule = rules.get(index.intValue() - 1);
                return new PolicyDecision(rule.policy(), rule.index(), rule.when(), null);
            }
        } catch (CelEvaluationException | RuntimeException e) {
            // Some rule failed: find which, rule by rule, to say so (the slow path, for failures only).
        }
        for (Compiled rule : rules) {
            Object result;
            try {
                result = rule.program().eval(variables);
            } catch (CelEvaluationException | RuntimeException e) {
                return denied("rule " + rule.index() + " could not be evaluated: " + oneLine(e.getMessage()));
            }
            if (!(result instanceof Boolean holds)) {
                return denied("rule " + rule.index() + " did not evaluate to a boolean");
            }
            if (holds) {
                return new PolicyDecision(rule.policy(), rule.index(), rule.when(), null);
            }
        }
        return new PolicyDecision(defaults, null, null, null);
    }

    /**
     * Why an argument's value is not of the type the rules read it as, or null. An upstream MCP
     * server's integer may exceed 64 bits (its schema sets no maximum); CEL compares such a value
     * with an {@code int} as unequal, without an error, so {@code args.n == 0} would not hold for a
     * number the server may read as 0. No rule is evaluated on a value it was not typed for.
     */
    private @Nullable String mistyped(Map<String, Object> args) {
        for (Map.Entry<String, Class<?>> parameter : parameters.entrySet()) {
            Object value = args.get(parameter.getKey());
            if (value != null && !parameter.getValue().isInstance(value)) {
                return "argument " + parameter.getKey() + " is not "
                        + (parameter.getValue() == Long.class
                                ? "an integer of at most 64 bits"
                                : parameter.getValue() == Boolean.class ? "a boolean" : "a string")
                        + ", which the rules read it as";
            }
        }
        return null;
    }

    private PolicyDecision denied(String why) {
        return new PolicyDecision(
                new ToolPolicy(
                        ApprovalMode.DENY,
                        1,
                        defaults.approvalTimeout(),
                        defaults.approveReasonRequired(),
                        defaults.notifyGroup()),
                null,
                null,
                why);
    }

    /** The CEL environment of one tool: its typed arguments, the agent, the tenant, the tool, the time. */
    private static Cel environment(String tool, Map<String, Class<?>> parameters, int maxNodes, int maxDepth) {
        Map<String, CelType> fields = new LinkedHashMap<>();
        parameters.forEach((name, type) -> fields.put(
                name,
                type == Long.class ? SimpleType.INT : type == Boolean.class ? SimpleType.BOOL : SimpleType.STRING));
        StructType args = StructType.create(
                "airlock.Arguments",
                ImmutableSet.copyOf(fields.keySet()),
                field -> Optional.ofNullable(fields.get(field)));
        Map<String, CelType> agentFields =
                Map.of("name", SimpleType.STRING, "labels", MapType.create(SimpleType.STRING, SimpleType.STRING));
        StructType agent = StructType.create(
                "airlock.Agent",
                ImmutableSet.copyOf(agentFields.keySet()),
                field -> Optional.ofNullable(agentFields.get(field)));
        CelTypeProvider types = new CelTypeProvider() {
            @Override
            public com.google.common.collect.ImmutableCollection<CelType> types() {
                return com.google.common.collect.ImmutableList.of(args, agent);
            }

            @Override
            public Optional<CelType> findType(String name) {
                return switch (name) {
                    case "airlock.Arguments" -> Optional.of(args);
                    case "airlock.Agent" -> Optional.of(agent);
                    default -> Optional.empty();
                };
            }
        };
        return CelFactory.standardCelBuilder()
                .setOptions(CelOptions.current()
                        .maxParseExpressionNodeCount(maxNodes)
                        .maxParseRecursionDepth(maxDepth)
                        .enableComprehension(false)
                        .enableHeterogeneousNumericComparisons(true)
                        // matches() holds only for the whole string, as a parameter's pattern does.
                        .enableRegexPartialMatch(false)
                        .build())
                .setStandardMacros(CelStandardMacro.HAS)
                // Normalising before comparing (args.repo.lowerAscii() == "secrets"), and finding:
                // none of these makes a string longer than its input, so a rule's cost stays bounded.
                .addCompilerLibraries(STRINGS)
                .addRuntimeLibraries(STRINGS)
                .setTypeProvider(types)
                .addVar("args", args)
                .addVar("agent", agent)
                .addVar("tenant", SimpleType.STRING)
                .addVar("tool", SimpleType.STRING)
                .addVar("now", SimpleType.TIMESTAMP)
                .setResultType(SimpleType.BOOL)
                .build();
    }

    private static String oneLine(@Nullable String message) {
        return message == null ? "" : message.replaceAll("\\s+", " ").strip();
    }

    /**
     * Refuses rules that set approval settings (approvers, reason, approval-timeout, notify) while
     * their approval, their own or {@code toolMode} when they leave it out, is not {@code required}:
     * such a rule decides (it may hide a later deny) and its settings never apply, so a rule meant to
     * ask two people would let the action run at once. Needs no parameters: it is also checked at
     * start for the rules an MCP server's tools will be compiled with when they are listed.
     *
     * @param key where the rules are configured ({@code key[i]} names a rule)
     * @throws InvalidConfigurationException naming the first such rule
     */
    public static void checkApprovalSettings(List<RuleSpec> specs, ApprovalMode toolMode, String key) {
        for (int i = 0; i < specs.size(); i++) {
            checkApprovalSettings(specs.get(i), toolMode, key + "[" + i + "]");
        }
    }

    private static void checkApprovalSettings(RuleSpec spec, ApprovalMode toolMode, String where) {
        ApprovalMode mode = spec.approval() == null ? toolMode : spec.approval();
        String unused = approvalSettingsWithoutApproval(spec);
        if (mode != ApprovalMode.REQUIRED && unused != null) {
            throw new InvalidConfigurationException(
                    where,
                    "sets " + unused + " but its approval is " + mode.name().toLowerCase(java.util.Locale.ROOT)
                            + (spec.approval() == null ? " (the tool's)" : "")
                            + ", so nobody is asked; write approval: required in the rule, or leave " + unused
                            + " out");
        }
    }

    /** The first approval setting a rule writes (its configuration key), or null when it writes none. */
    private static @org.jspecify.annotations.Nullable String approvalSettingsWithoutApproval(RuleSpec spec) {
        if (spec.approvers() != null) {
            return "approvers";
        }
        if (spec.reason() != null) {
            return "reason";
        }
        if (spec.approvalTimeout() != null) {
            return "approval-timeout";
        }
        return spec.notifyGroup() != null ? "notify" : null;
    }
}
