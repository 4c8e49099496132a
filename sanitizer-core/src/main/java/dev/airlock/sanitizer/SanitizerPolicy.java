package dev.airlock.sanitizer;

/**
 * Immutable settings of a {@link TerminalSanitizer}; safe to share between threads.
 *
 * @param crPolicy          what carriage returns and backspaces do
 * @param maxLineCodePoints under {@link CrPolicy#OVERWRITE}, how many code points of the current
 *                          line are kept for overwriting; when a line grows past it, the part
 *                          kept so far is written out and can no longer be overwritten
 */
public record SanitizerPolicy(CrPolicy crPolicy, int maxLineCodePoints) {

    /** The line bound used by the presets: 16,384 code points (64 KiB of state at most). */
    public static final int DEFAULT_MAX_LINE_CODE_POINTS = 16_384;

    private static final SanitizerPolicy NEWLINE = new SanitizerPolicy(CrPolicy.NEWLINE, DEFAULT_MAX_LINE_CODE_POINTS);
    private static final SanitizerPolicy OVERWRITE =
            new SanitizerPolicy(CrPolicy.OVERWRITE, DEFAULT_MAX_LINE_CODE_POINTS);

    /** Validates the settings. */
    public SanitizerPolicy {
        if (crPolicy == null) {
            throw new IllegalArgumentException("crPolicy must not be null");
        }
        if (maxLineCodePoints < 1) {
            throw new IllegalArgumentException("maxLineCodePoints must be at least 1, was " + maxLineCodePoints);
        }
    }

    /** The default policy: {@link CrPolicy#NEWLINE}. */
    public static SanitizerPolicy defaults() {
        return NEWLINE;
    }

    /** Screen emulation within a line: {@link CrPolicy#OVERWRITE}. */
    public static SanitizerPolicy overwrite() {
        return OVERWRITE;
    }

    /** The preset for the given CR policy. */
    public static SanitizerPolicy of(CrPolicy crPolicy) {
        return crPolicy == CrPolicy.OVERWRITE ? OVERWRITE : NEWLINE;
    }
}
