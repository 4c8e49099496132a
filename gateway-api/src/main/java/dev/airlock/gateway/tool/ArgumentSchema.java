package dev.airlock.gateway.tool;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.regex.RegularExpression;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One upstream tool's input schema, compiled once by networknt's JSON Schema validator in a
 * registry of its own (so no other schema, of this tenant or another, can stand in for it through
 * a shared cache or a shared {@code $id}), with every {@code pattern} run against a deadline: a
 * pattern that backtracks for longer than {@link #PATTERN_BUDGET_NANOS} fails the argument instead
 * of holding a thread, and all of one request's patterns together get
 * {@link #REQUEST_PATTERN_BUDGET_NANOS} (an array of thousands of values, each just under the first
 * budget, must not hold a core for minutes).
 */
public final class ArgumentSchema {

    /** The longest one pattern may take to match one value. */
    static final long PATTERN_BUDGET_NANOS = 100_000_000L;

    /** The longest all patterns may take together while one request's arguments are validated. */
    static final long REQUEST_PATTERN_BUDGET_NANOS = 250_000_000L;

    /** The deadline of the validation running on this thread, if one is. */
    private static final ThreadLocal<long[]> VALIDATION_DEADLINE = new ThreadLocal<>();

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Schema schema;
    private final Set<String> propertyNames;

    private ArgumentSchema(Schema schema, Set<String> propertyNames) {
        this.schema = schema;
        this.propertyNames = propertyNames;
    }

    /**
     * Compiles {@code schema}.
     *
     * @throws IllegalArgumentException when networknt cannot compile it
     */
    public static ArgumentSchema compile(Map<String, Object> schema) {
        try {
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(
                    Dialects.getDraft202012(),
                    builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder()
                            .regularExpressionFactory(ArgumentSchema::boundedPattern)
                            .build()));
            Schema compiled = registry.getSchema(JSON.valueToTree(schema));
            compiled.initializeValidators();
            // A reference that leads back to itself without taking a step into the instance
            // ({"$ref": "#"}) compiles, then recurses without end on every value.
            compiled.validate(JSON.createObjectNode());
            Set<String> names = new HashSet<>();
            properties(schema).keySet().forEach(name -> names.add(String.valueOf(name)));
            return new ArgumentSchema(compiled, Set.copyOf(names));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "the input schema cannot be compiled: " + e.getClass().getSimpleName());
        } catch (StackOverflowError e) {
            throw new IllegalArgumentException("the input schema refers to itself without end");
        }
    }

    /** The schema's top-level {@code properties}, or none. */
    static Map<?, ?> properties(Map<String, Object> schema) {
        return schema.get("properties") instanceof Map<?, ?> properties ? properties : Map.of();
    }

    /** The names of the schema's top-level properties. */
    Set<String> propertyNames() {
        return propertyNames;
    }

    /** What in {@code arguments} does not conform, one message per problem; empty when they conform. */
    List<String> problems(Object arguments) {
        JsonNode instance = JSON.valueToTree(arguments);
        return withOneBudget(() -> {
            try {
                return schema.validate(instance).stream()
                        .map(error -> error.getInstanceLocation() + ": " + error.getMessage())
                        .toList();
            } catch (PatternTimeout e) {
                return List.of("a pattern of the tool's input schema took too long to match; refused");
            } catch (StackOverflowError e) {
                // A reference cycle that only some values walk into ({"properties": {"x": {"$ref":
                // "#/properties/x"}}}).
                return List.of("the tool's input schema refers to itself without end for this value; refused");
            }
        });
    }

    /**
     * Runs {@code validations} with one pattern budget for all of them ({@link #REQUEST_PATTERN_BUDGET_NANOS}):
     * a request's arguments checked twice (as sent, then with the schema's defaults) share it.
     */
    static <T> T withOneBudget(java.util.function.Supplier<T> validations) {
        if (VALIDATION_DEADLINE.get() != null) {
            return validations.get();
        }
        VALIDATION_DEADLINE.set(new long[] {System.nanoTime() + REQUEST_PATTERN_BUDGET_NANOS});
        try {
            return validations.get();
        } finally {
            VALIDATION_DEADLINE.remove();
        }
    }

    private static RegularExpression boundedPattern(String regex) {
        Pattern pattern;
        try {
            // The schema's pattern is ECMA-262's: read as Java reads it, some would take more.
            pattern = Pattern.compile(EcmaPattern.toJava(regex));
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("not a regular expression: " + regex);
        }
        return value ->
                bounded(() -> pattern.matcher(new Deadline(value, deadline())).find());
    }

    /** Now plus one pattern's budget, or the validation's deadline when that comes first. */
    private static long deadline() {
        long own = System.nanoTime() + PATTERN_BUDGET_NANOS;
        long[] validation = VALIDATION_DEADLINE.get();
        return validation != null && validation[0] - own < 0 ? validation[0] : own;
    }

    /** A pattern ran out of time. */
    static final class PatternTimeout extends RuntimeException {

        private static final long serialVersionUID = 1L;

        PatternTimeout() {
            super("pattern timed out", null, false, false);
        }
    }

    /**
     * Whether {@code pattern} matches the whole of {@code value} within the pattern budget.
     *
     * @throws PatternTimeout when it takes longer (a pattern that backtracks must not hold a core),
     *     or its matching recursion runs out of stack
     */
    static boolean matchesWhole(Pattern pattern, String value) {
        return bounded(() -> pattern.matcher(new Deadline(value, System.nanoTime() + PATTERN_BUDGET_NANOS))
                .matches());
    }

    /**
     * {@code match}, with a matcher that runs out of stack read as one past its budget: Java's
     * matcher recurses per repetition of a group, so a long value can exhaust the stack.
     */
    private static boolean bounded(java.util.function.BooleanSupplier match) {
        try {
            return match.getAsBoolean();
        } catch (StackOverflowError e) {
            throw new PatternTimeout();
        }
    }

    /** The value a pattern matches, read through a clock: past its deadline, reading it throws. */
    private record Deadline(CharSequence value, long deadline) implements CharSequence {

        @Override
        public int length() {
            return value.length();
        }

        @Override
        public char charAt(int index) {
            if (System.nanoTime() - deadline > 0) {
                throw new PatternTimeout();
            }
            return value.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Deadline(value.subSequence(start, end), deadline);
        }

        @Override
        public String toString() {
            return value.toString();
        }
    }
}
