package dev.airlock.approval.input;

import org.jspecify.annotations.Nullable;

/**
 * The bound on free text a person types (a reason, a name): text longer than {@code maxLength}
 * characters, or holding a control character other than a tab or a line break (NUL, which the
 * database cannot store, escape sequences), is refused, never cut or cleaned, so that what is
 * stored is what the person wrote. Immutable and thread-safe.
 *
 * @param maxLength the longest accepted text, in characters (UTF-16 code units)
 */
public record HumanText(int maxLength) {

    /** The default bound, 2,000 characters. */
    public static final int DEFAULT_MAX_LENGTH = 2000;

    public HumanText {
        if (maxLength < 1) {
            throw new IllegalArgumentException("maxLength must be at least 1");
        }
    }

    /**
     * Returns {@code value} when it is within the bound and free of control characters other than
     * tab, line feed and carriage return (null stays null).
     *
     * @param field the name of the field, for the error
     * @throws Refused when the value is longer than the bound or holds another control character
     */
    public @Nullable String check(String field, @Nullable String value) {
        if (value == null) {
            return null;
        }
        if (value.length() > maxLength) {
            throw new Refused(
                    field,
                    "Field '" + field + "' is " + value.length() + " characters long; at most " + maxLength
                            + " are accepted.");
        }
        int control = firstNotAccepted(value);
        if (control >= 0) {
            throw new Refused(
                    field,
                    "Field '" + field + "' holds a control character or half of a surrogate pair (U+"
                            + String.format("%04X", (int) value.charAt(control)) + " at " + control
                            + "); of the control characters, only tabs and line breaks are accepted.");
        }
        return value;
    }

    /**
     * The index of the first control character other than tab, line feed and carriage return, or of
     * the first unpaired surrogate (which no text can hold), or -1.
     */
    public static int firstNotAccepted(String value) {
        int surrogate = dev.airlock.kernel.problem.RequestText.firstUnpairedSurrogate(value);
        int end = surrogate < 0 ? value.length() : surrogate;
        for (int i = 0; i < end; i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') {
                return i;
            }
        }
        return surrogate;
    }

    /** Free text refused; the message names the field and why, never the text. */
    public static final class Refused extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        private final String field;

        Refused(String field, String message) {
            super(message);
            this.field = field;
        }

        /** The field that was refused. */
        public String field() {
            return field;
        }
    }
}
