package dev.airlock.gateway.http;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;

/**
 * How JSON from outside is read: within a size, a nesting depth and lengths of strings, numbers
 * and names, and with a key given twice in one object refused, so that Airlock never acts on a
 * different reading of a body than a proxy in front of it (which may take the first of two keys
 * where a lenient parser takes the last). Thread-safe.
 */
public final class BoundedJson {

    /** Objects and arrays within each other: tool arguments are flat, JSON-RPC messages a few levels deep. */
    public static final int MAX_NESTING = 32;
    /** Digits of one number: a 64-bit integer has at most 20. */
    public static final int MAX_NUMBER_LENGTH = 100;
    /** Characters of one key. */
    public static final int MAX_NAME_LENGTH = 1024;

    private static final Pattern DUPLICATE = Pattern.compile("Duplicate Object property \"(.{0,100})");

    private BoundedJson() {}

    /** A JSON factory that reads at most {@code maxDocumentBytes} in one document, within the bounds above. */
    public static JsonFactory factory(long maxDocumentBytes) {
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxDocumentLength(maxDocumentBytes)
                .maxNestingDepth(MAX_NESTING)
                .maxStringLength((int) Math.min(maxDocumentBytes, Integer.MAX_VALUE))
                .maxNumberLength(MAX_NUMBER_LENGTH)
                .maxNameLength(MAX_NAME_LENGTH)
                .build();
        return JsonFactory.builder()
                .streamReadConstraints(constraints)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
    }

    /** The key a body gave twice, if that is why {@code failure} (or one of its causes) was thrown. */
    public static Optional<String> duplicateKey(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            Matcher matcher = t.getMessage() == null ? null : DUPLICATE.matcher(t.getMessage());
            if (matcher != null && matcher.find()) {
                String key = matcher.group(1);
                int end = key.indexOf('"');
                return Optional.of(printable(end >= 0 ? key.substring(0, end) : key, 100));
            }
        }
        return Optional.empty();
    }

    /**
     * The field a body gave that its type does not have, with the fields it does have, if that is
     * why {@code failure} (or one of its causes) was thrown; the name printable and bounded.
     */
    public static Optional<UnknownField> unknownField(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof tools.jackson.databind.exc.UnrecognizedPropertyException unknown) {
                java.util.Collection<Object> known =
                        java.util.Objects.requireNonNullElse(unknown.getKnownPropertyIds(), java.util.List.of());
                return Optional.of(new UnknownField(
                        printable(String.valueOf(unknown.getPropertyName()), 100),
                        known.stream().map(String::valueOf).sorted().distinct().toList()));
            }
        }
        return Optional.empty();
    }

    /**
     * A field a request body may not have.
     *
     * @param name  the field as given (printable, at most 100 characters)
     * @param known the fields the body may have, sorted
     */
    public record UnknownField(String name, java.util.List<String> known) {}

    /**
     * Makes {@code builder}'s mapper take each JSON type only as itself: {@code false} or {@code 5}
     * is not a string ("false" as a decision's reason, "5" as a tool's name), {@code "1"} is not a
     * number, {@code 1.5} is not an integer. Such a body is a 400 naming the field ({@link #mismatchedField}).
     */
    public static void strictScalars(tools.jackson.databind.json.JsonMapper.Builder builder) {
        builder.disable(tools.jackson.databind.MapperFeature.ALLOW_COERCION_OF_SCALARS);
        builder.disable(tools.jackson.databind.DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        builder.withCoercionConfig(
                tools.jackson.databind.type.LogicalType.Textual,
                config -> config.setCoercion(
                                tools.jackson.databind.cfg.CoercionInputShape.Integer,
                                tools.jackson.databind.cfg.CoercionAction.Fail)
                        .setCoercion(
                                tools.jackson.databind.cfg.CoercionInputShape.Float,
                                tools.jackson.databind.cfg.CoercionAction.Fail)
                        .setCoercion(
                                tools.jackson.databind.cfg.CoercionInputShape.Boolean,
                                tools.jackson.databind.cfg.CoercionAction.Fail));
    }

    /**
     * The field (a dotted path, {@code [n]} for an array's element; printable and bounded) whose
     * value has the wrong JSON type for the body, if that is why {@code failure} (or one of its
     * causes) was thrown.
     */
    public static Optional<String> mismatchedField(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof tools.jackson.databind.exc.MismatchedInputException mismatch
                    && !mismatch.getPath().isEmpty()) {
                StringBuilder path = new StringBuilder();
                for (tools.jackson.core.JacksonException.Reference reference : mismatch.getPath()) {
                    if (reference.getPropertyName() != null) {
                        path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
                    } else if (reference.getIndex() >= 0) {
                        path.append('[').append(reference.getIndex()).append(']');
                    }
                }
                return path.isEmpty() ? Optional.empty() : Optional.of(printable(path.toString(), 100));
            }
        }
        return Optional.empty();
    }

    /** Whether {@code failure} (or one of its causes) is a read bound being passed. */
    public static boolean pastABound(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof StreamConstraintsException) {
                return true;
            }
        }
        return false;
    }

    /** {@code text} in printable ASCII ({@code ?} for anything else), at most {@code limit} characters and "...". */
    private static String printable(String text, int limit) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> out.appendCodePoint(c >= 0x20 && c < 0x7f ? c : '?'));
        return out.length() > limit ? out.substring(0, limit) + "..." : out.toString();
    }
}
