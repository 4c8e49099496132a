package dev.airlock.kernel.problem;

import java.util.UUID;

/** 404: no run with this id in the caller's tenant (another tenant's run looks the same). */
public final class RunNotFound extends ApiProblem {

    private static final long serialVersionUID = 1L;

    private RunNotFound(String detail) {
        super(404, "run-not-found", "Run not found", detail);
    }

    public static RunNotFound forId(UUID id) {
        return new RunNotFound("No run " + id + " exists for you.");
    }

    public static RunNotFound forText(String id) {
        return new RunNotFound("No run " + id + " exists for you.");
    }

    private static final java.util.regex.Pattern CANONICAL = java.util.regex.Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    /** Whether {@code text} is a UUID in its canonical form: 36 characters, hex digits in groups of 8-4-4-4-12. */
    public static boolean isCanonicalId(String text) {
        return CANONICAL.matcher(text).matches();
    }

    /**
     * The id a URL names, in the canonical form only (36 characters): {@code UUID.fromString} also
     * reads short forms such as {@code 1-1-1-1-1} as another id.
     *
     * @throws RunNotFound when {@code text} is not a canonical id (its first 64 characters named)
     */
    public static UUID parseId(String text) {
        if (!isCanonicalId(text)) {
            throw forText(text.length() > 64 ? text.substring(0, 64) : text);
        }
        return UUID.fromString(text);
    }
}
