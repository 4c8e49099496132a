package dev.airlock.kernel.problem;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** 400: the request is well-formed JSON but asks for something invalid. */
public final class InvalidRequest extends ApiProblem {

    private static final long serialVersionUID = 1L;

    private InvalidRequest(@Nullable String detail) {
        super(400, "invalid-request", "Invalid request", detail);
    }

    /** The most errors one problem lists; a body of many bad keys must not grow the answer past the request. */
    public static final int MAX_LISTED_ERRORS = 20;

    /**
     * The arguments do not fit the tool's parameters; the errors are listed, at most
     * {@link #MAX_LISTED_ERRORS} of them and then how many more there are.
     */
    public static InvalidRequest arguments(String tool, List<String> errors) {
        List<String> listed = errors.size() <= MAX_LISTED_ERRORS
                ? List.copyOf(errors)
                : java.util.stream.Stream.concat(
                                errors.stream().limit(MAX_LISTED_ERRORS),
                                java.util.stream.Stream.of(
                                        "... and " + (errors.size() - MAX_LISTED_ERRORS) + " more errors"))
                        .toList();
        InvalidRequest problem =
                new InvalidRequest("Arguments for tool '" + tool + "' are invalid: " + String.join("; ", listed));
        problem.with("errors", listed);
        return problem;
    }

    /** The agent's tenant has no such tool (named as given, printable ASCII only and at most 100 characters). */
    public static InvalidRequest unknownTool(String tool, List<String> available) {
        return (InvalidRequest)
                new InvalidRequest("Unknown tool '" + shown(tool) + "'. Tools you may call: " + available)
                        .with("field", "tool")
                        .with("tools", available);
    }

    /** At most 100 characters of what a caller sent, each outside printable ASCII as '?'. */
    private static String shown(String text) {
        StringBuilder shown = new StringBuilder();
        for (int i = 0; i < text.length() && shown.length() < 100; i++) {
            char c = text.charAt(i);
            shown.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return text.length() > 100 ? shown + "..." : shown.toString();
    }

    /**
     * A field (of the body, a query parameter or a header) is missing or invalid; the problem names
     * it in its {@code field} member. The detail should not repeat the value a person typed.
     */
    public static InvalidRequest field(String field, String detail) {
        return (InvalidRequest) new InvalidRequest(detail).with("field", field);
    }

    /**
     * The instant {@code text} gives, as ISO-8601 ({@code 2026-12-01T00:00:00Z}), within the years 1
     * to 9999 (what the database stores and every client can print).
     *
     * @throws InvalidRequest naming {@code field} when it is not such an instant
     */
    public static java.time.Instant instant(String field, String text) {
        java.time.Instant instant;
        try {
            instant = java.time.Instant.parse(text.strip());
        } catch (java.time.format.DateTimeParseException e) {
            throw field(field, "Field '" + field + "' is not an ISO-8601 instant such as 2026-12-01T00:00:00Z.");
        }
        if (!withinRange(instant)) {
            throw field(field, "Field '" + field + "' must be between the years 1 and 9999.");
        }
        return instant;
    }

    /** Whether {@code instant} lies within the years 1 to 9999 (UTC), the range requests may name. */
    public static boolean withinRange(java.time.Instant instant) {
        return !instant.isBefore(FIRST) && instant.isBefore(PAST_LAST);
    }

    private static final java.time.Instant FIRST = java.time.Instant.parse("0001-01-01T00:00:00Z");
    private static final java.time.Instant PAST_LAST = java.time.Instant.parse("+10000-01-01T00:00:00Z");

    /** Anything else, with its reason. */
    public static InvalidRequest because(@Nullable String detail) {
        return new InvalidRequest(detail);
    }
}
