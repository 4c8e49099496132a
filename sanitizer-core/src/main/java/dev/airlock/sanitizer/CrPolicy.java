package dev.airlock.sanitizer;

/**
 * What the sanitizer does with carriage returns (CR, 0x0d) and backspaces (BS, 0x08).
 */
public enum CrPolicy {

    /**
     * The default: CR LF becomes LF, a lone CR becomes LF (a run of CRs before LF counts as
     * one line break) and backspaces are dropped, so text that a terminal would overwrite
     * stays visible. {@code "check failed\rcheck passed"} becomes two lines.
     */
    NEWLINE,

    /**
     * Emulates the cursor within the current line, showing what a person would see on
     * screen: CR returns to column 0, BS moves one column left, and later characters
     * overwrite earlier ones. {@code "check failed\rcheck passed"} becomes
     * {@code "check passed"}. A column is one code point; the line is bounded by
     * {@link SanitizerPolicy#maxLineCodePoints()}.
     */
    OVERWRITE
}
