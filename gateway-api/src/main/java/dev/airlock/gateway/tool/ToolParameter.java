package dev.airlock.gateway.tool;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A compiled, validated tool parameter. Checks one argument and renders it as argv text.
 *
 * @param name             the parameter name
 * @param type             its JSON type
 * @param description      shown to agents, may be null
 * @param pattern          strings: what the whole value must match, or null
 * @param maxLength        strings: the longest value in characters
 * @param min              integers: the smallest value, or null
 * @param max              integers: the largest value, or null
 * @param values           strings: the only values allowed, or empty
 * @param defaultValue     the typed default, or null when the argument is required
 * @param allowLeadingDash whether a value may start with '-' (a negative integer does): off, values cannot pose as options
 */
public record ToolParameter(
        String name,
        ParameterType type,
        @Nullable String description,
        @Nullable Pattern pattern,
        int maxLength,
        @Nullable Long min,
        @Nullable Long max,
        List<String> values,
        @Nullable Object defaultValue,
        boolean allowLeadingDash) {

    /** The longest string argument when a parameter sets no max-length. */
    public static final int DEFAULT_MAX_LENGTH = 1024;

    /** Whether the agent must give this argument. */
    public boolean required() {
        return defaultValue == null;
    }

    /**
     * The checked value of {@code raw} (a String, Long or Boolean), or null after adding what is
     * wrong to {@code errors}.
     */
    @Nullable
    Object check(@Nullable Object raw, List<String> errors) {
        String where = "arguments." + name;
        switch (type) {
            case STRING -> {
                if (!(raw instanceof String s)) {
                    errors.add(where + ": must be a string");
                    return null;
                }
                if (s.length() > maxLength) {
                    errors.add(where + ": must be at most " + maxLength + " characters");
                    return null;
                }
                if (s.chars().anyMatch(c -> c < 0x20 || c == 0x7F || c >= 0x80 && c < 0xA0)) {
                    errors.add(where + ": must not contain control characters");
                    return null;
                }
                if (dev.airlock.kernel.problem.RequestText.firstUnpairedSurrogate(s) >= 0) {
                    errors.add(where + ": must not contain half of a surrogate pair (it is no character)");
                    return null;
                }
                if (!allowLeadingDash && s.startsWith("-")) {
                    errors.add(where + ": must not start with '-'");
                    return null;
                }
                if (!values.isEmpty() && !values.contains(s)) {
                    errors.add(where + ": must be one of " + values);
                    return null;
                }
                if (pattern != null) {
                    try {
                        if (!ArgumentSchema.matchesWhole(pattern, s)) {
                            errors.add(where + ": must match " + pattern.pattern());
                            return null;
                        }
                    } catch (ArgumentSchema.PatternTimeout e) {
                        errors.add(where + ": took too long to match " + pattern.pattern() + "; refused");
                        return null;
                    }
                }
                return s;
            }
            case INTEGER -> {
                if (!(raw instanceof Integer || raw instanceof Long || raw instanceof Short || raw instanceof Byte)) {
                    errors.add(where + ": must be an integer");
                    return null;
                }
                long v = ((Number) raw).longValue();
                if (!allowLeadingDash && v < 0) {
                    errors.add(where + ": must not be negative (its leading '-' could pose as an option)");
                    return null;
                }
                if (min != null && v < min) {
                    errors.add(where + ": must be at least " + min);
                    return null;
                }
                if (max != null && v > max) {
                    errors.add(where + ": must be at most " + max);
                    return null;
                }
                return v;
            }
            default -> {
                if (!(raw instanceof Boolean b)) {
                    errors.add(where + ": must be true or false");
                    return null;
                }
                return b;
            }
        }
    }

    /** This parameter as a JSON Schema property. */
    public Map<String, Object> jsonSchema() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", type.jsonName());
        if (description != null) {
            schema.put("description", description);
        }
        if (type == ParameterType.STRING) {
            schema.put("maxLength", maxLength);
            if (pattern != null) {
                schema.put("pattern", "^(?:" + pattern.pattern() + ")$");
            }
            if (!values.isEmpty()) {
                schema.put("enum", values);
            }
        }
        Long minimum = type == ParameterType.INTEGER && !allowLeadingDash
                ? Long.valueOf(Math.max(min == null ? 0 : min, 0))
                : min;
        if (minimum != null) {
            schema.put("minimum", minimum);
        }
        if (max != null) {
            schema.put("maximum", max);
        }
        if (defaultValue != null) {
            schema.put("default", defaultValue);
        }
        return schema;
    }
}
