package dev.airlock.gateway.tool;

import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.kernel.problem.RequestText;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson3.DefaultJsonSchemaValidator;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Arguments checked against a JSON Schema an upstream MCP server gave (networknt's JSON Schema
 * implementation: the schema checked against its meta-schema through the MCP SDK's validator, then
 * compiled per tool as an {@link ArgumentSchema}), and made canonical: object keys sorted, whole numbers as
 * longs, so that the same call always renders, digests and approves the same. A schema that could
 * make the validator fetch anything ({@code $ref} outside the document, a meta-schema that is not a
 * published draft) is refused before it is ever used.
 */
public final class SchemaArguments {

    private static final JsonSchemaValidator VALIDATOR = new DefaultJsonSchemaValidator();
    private static final Set<String> META_SCHEMAS = Set.of(
            "http://json-schema.org/draft-04/schema#",
            "http://json-schema.org/draft-06/schema#",
            "http://json-schema.org/draft-07/schema#",
            "http://json-schema.org/draft-07/schema",
            "https://json-schema.org/draft/2019-09/schema",
            "https://json-schema.org/draft/2020-12/schema");
    private static final Set<String> REFERENCES = Set.of("$ref", "$dynamicRef", "$recursiveRef");
    /** Nesting of arguments accepted at most. */
    static final int MAX_DEPTH = 32;

    private SchemaArguments() {}

    /** Why {@code schema} cannot be used to check arguments, or null when it can. */
    public static @Nullable String problem(Map<String, Object> schema) {
        if (!"object".equals(schema.get("type"))) {
            return "the input schema's type is not object";
        }
        String reference = externalReference(schema, 0);
        if (reference != null) {
            return reference;
        }
        JsonSchemaValidator.ValidationResponse valid = VALIDATOR.validateSchema(schema);
        if (!valid.valid()) {
            return "the input schema is not a valid JSON Schema";
        }
        String defaults = defaultsProblem(schema);
        if (defaults != null) {
            return defaults;
        }
        try {
            ArgumentSchema.compile(schema);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** The most characters a top-level default may take as JSON: it is copied into every call and approval. */
    static final int MAX_DEFAULT_CHARS = 4096;

    /** Why the schema's top-level defaults cannot be filled into calls, or null. */
    private static @Nullable String defaultsProblem(Map<String, Object> schema) {
        List<String> errors = new ArrayList<>();
        Map<String, Object> defaults = defaults(schema, errors);
        if (!errors.isEmpty()) {
            return "a default cannot be sent: " + errors.getFirst();
        }
        for (Map.Entry<String, Object> value : defaults.entrySet()) {
            if (DEFAULT_JSON.writeValueAsString(value.getValue()).length() > MAX_DEFAULT_CHARS) {
                return "the default of " + value.getKey() + " is longer than " + MAX_DEFAULT_CHARS
                        + " characters as JSON";
            }
        }
        return null;
    }

    /** The schema's top-level defaults by property, canonical; what cannot be made canonical goes to {@code errors}. */
    private static Map<String, Object> defaults(Map<String, Object> schema, List<String> errors) {
        Map<String, Object> defaults = new TreeMap<>();
        for (Map.Entry<?, ?> property : ArgumentSchema.properties(schema).entrySet()) {
            if (property.getKey() instanceof String name
                    && property.getValue() instanceof Map<?, ?> definition
                    && definition.get("default") != null) {
                Object value = canonical(definition.get("default"), 1, errors);
                if (value != null) {
                    defaults.put(name, value);
                }
            }
        }
        return defaults;
    }

    private static final tools.jackson.databind.json.JsonMapper DEFAULT_JSON =
            tools.jackson.databind.json.JsonMapper.builder().build();

    /** Keywords whose values are instances (data), not schemas: an {@code id} there is data. */
    private static final java.util.Set<String> DATA_KEYWORDS = java.util.Set.of("default", "examples", "const", "enum");

    /** Keywords whose values map names (of properties, definitions) to schemas: the names are not keywords. */
    private static final java.util.Set<String> NAMED_SCHEMAS = java.util.Set.of(
            "properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "dependencies");

    /** What a node of the input schema is: a schema, a map of names to schemas, or data. */
    private enum Part {
        SCHEMA,
        NAMES,
        DATA
    }

    private static @Nullable String externalReference(Object node, int depth) {
        return externalReference(node, depth, Part.SCHEMA);
    }

    private static @Nullable String externalReference(Object node, int depth, Part part) {
        if (depth > 64) {
            return "the input schema is nested too deeply";
        }
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String key = String.valueOf(entry.getKey());
                // In a map of names (properties, definitions), a key is a name, whatever it is; its value a schema.
                Part inner = Part.SCHEMA;
                if (part != Part.NAMES) {
                    if (part == Part.SCHEMA
                            && (key.equals("$id") || key.equals("id") && entry.getValue() instanceof String)) {
                        // At any depth: a nested identifier changes the base a local reference resolves against.
                        return "the input schema declares an identifier ($id), which Airlock does not accept";
                    }
                    if (REFERENCES.contains(key) && !(entry.getValue() instanceof String ref && ref.startsWith("#"))) {
                        return "the input schema refers outside itself (" + key + ")";
                    }
                    if (part == Part.SCHEMA
                            && key.equals("$schema")
                            && !META_SCHEMAS.contains(String.valueOf(entry.getValue()))) {
                        return "the input schema's $schema is not a published JSON Schema draft";
                    }
                    if (part == Part.DATA || DATA_KEYWORDS.contains(key)) {
                        inner = Part.DATA;
                    } else if (NAMED_SCHEMAS.contains(key)) {
                        inner = Part.NAMES;
                    }
                }
                String found = externalReference(entry.getValue(), depth + 1, inner);
                if (found != null) {
                    return found;
                }
            }
        } else if (node instanceof List<?> list) {
            for (Object item : list) {
                String found = externalReference(item, depth + 1, part == Part.DATA ? Part.DATA : Part.SCHEMA);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /**
     * {@code arguments} of a call of {@code tool}, checked against its input schema, canonical.
     *
     * @throws InvalidRequest naming what does not conform
     */
    static Map<String, Object> check(Tool tool, McpTarget target, @Nullable Map<String, Object> arguments) {
        return ArgumentSchema.withOneBudget(() -> checked(tool, target, arguments));
    }

    private static Map<String, Object> checked(Tool tool, McpTarget target, @Nullable Map<String, Object> arguments) {
        Map<String, Object> given = arguments == null ? Map.of() : arguments;
        List<String> errors = new ArrayList<>();
        Object canonical = java.util.Objects.requireNonNull(canonical(given, 0, errors), "an object");
        if (errors.isEmpty()) {
            String lookalike =
                    LookalikeKeys.problem(canonical, target.compiled().propertyNames());
            if (lookalike != null) {
                errors.add(lookalike);
            }
        }
        if (!errors.isEmpty()) {
            throw InvalidRequest.arguments(tool.name(), errors);
        }
        List<String> problems = target.compiled().problems(canonical);
        if (!problems.isEmpty()) {
            throw InvalidRequest.arguments(
                    tool.name(),
                    problems.stream()
                            .limit(10)
                            .map(p -> "arguments: do not conform to the tool's input schema: " + p)
                            .toList());
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> values = (Map<String, Object>) canonical;
        Map<String, Object> filled = withDefaults(values, target.inputSchema(), errors);
        if (filled != values) {
            List<String> defaultProblems = target.compiled().problems(filled);
            if (!errors.isEmpty() || !defaultProblems.isEmpty()) {
                // The server's own default breaks its schema: nothing is sent that was not checked.
                throw InvalidRequest.arguments(
                        tool.name(),
                        java.util.stream.Stream.concat(errors.stream(), defaultProblems.stream())
                                .limit(10)
                                .map(p -> "arguments: with the schema's defaults filled in: " + p)
                                .toList());
            }
        }
        return filled;
    }

    /**
     * The arguments with the default of every top-level property the agent left out, as the schema
     * declares it: rules decide on the call as it will be made, and the server is sent those values
     * (what was approved is what runs, whatever default the server's code would have applied).
     * Returns {@code values} itself when the schema fills in nothing.
     */
    private static Map<String, Object> withDefaults(
            Map<String, Object> values, Map<String, Object> schema, List<String> errors) {
        Map<String, Object> missing = defaults(schema, errors);
        missing.keySet().removeAll(values.keySet());
        if (missing.isEmpty()) {
            return values;
        }
        TreeMap<String, Object> filled = new TreeMap<>(values);
        filled.putAll(missing);
        return filled;
    }

    private static final String HALF_SURROGATE = "arguments: a name or string holds half of a surrogate pair";

    private static @Nullable Object canonical(@Nullable Object value, int depth, List<String> errors) {
        if (value == null) {
            return null;
        }
        if (depth > MAX_DEPTH) {
            if (errors.isEmpty()) {
                errors.add("arguments: nested deeper than " + MAX_DEPTH + " levels");
            }
            return Map.of();
        }
        return switch (value) {
            case Map<?, ?> map -> {
                TreeMap<String, @Nullable Object> sorted = new TreeMap<>();
                map.forEach((k, v) -> sorted.put(
                        (String) Objects.requireNonNull(canonical(String.valueOf(k), depth, errors)),
                        canonical(v, depth + 1, errors)));
                yield sorted;
            }
            // Half a surrogate pair is no character: a rule would read it, the record would store '?'
            // and the upstream would get the escape, three different values.
            case String text -> {
                if (RequestText.firstUnpairedSurrogate(text) >= 0) {
                    addOnce(errors, HALF_SURROGATE + " (it is no character)");
                }
                yield text;
            }
            case List<?> list -> {
                List<@Nullable Object> items = new ArrayList<>();
                list.forEach(v -> items.add(canonical(v, depth + 1, errors)));
                yield items;
            }
            case Integer i -> i.longValue();
            case Short s -> s.longValue();
            case Byte b -> b.longValue();
            case BigInteger big -> big.bitLength() < 64 ? (Object) big.longValue() : big;
            // A whole number written with a fraction (5.0, 1e3) is the integer it equals: schemas
            // accept it as one, and rules and digests must see the same value as for 5.
            case BigDecimal decimal -> wholeLong(decimal, decimal);
            case Double d -> Double.isFinite(d) ? wholeLong(BigDecimal.valueOf(d), d) : notFinite(d, errors);
            case Float f -> Float.isFinite(f) ? wholeLong(new BigDecimal(Float.toString(f)), f) : notFinite(f, errors);
            default -> value;
        };
    }

    /**
     * A number past what a double holds ({@code 1e400} reads as infinity): refused, since it would
     * be written as the string {@code "Infinity"} where the schema checked a number.
     */
    private static Object notFinite(Object value, List<String> errors) {
        addOnce(errors, "arguments: a number too large to be sent as one (" + value + ")");
        return value;
    }

    /**
     * Adds {@code error} unless it is there already: every error of a value is one of a few
     * messages, so however many values repeat one (80,000 infinities), the list stays as short
     * and each check of it as cheap.
     */
    private static void addOnce(List<String> errors, String error) {
        if (!errors.contains(error)) {
            errors.add(error);
        }
    }

    /** {@code decimal} as a long when it is a whole number a long holds; otherwise {@code original}. */
    private static Object wholeLong(BigDecimal decimal, Object original) {
        try {
            return decimal.longValueExact();
        } catch (ArithmeticException notWholeOrTooLarge) {
            return original;
        }
    }
}
