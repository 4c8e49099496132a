package dev.airlock.approval.input;

import org.jspecify.annotations.Nullable;

/**
 * The bound on free text a person types (a reason, a name): text longer than {@code maxLength}
 * characters is refused, never cut, so that what is stored is what the person wrote. Immutable
 * and thread-safe.
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
     * Returns {@code value} when it is within the bound (null stays null).
     *
     * @param field the name of the field, for the error
     * @throws TextTooLong when the value is longer than the bound
     */
    public @Nullable String check(String field, @Nullable String value) {
        if (value != null && value.length() > maxLength) {
            throw new TextTooLong(field, value.length(), maxLength);
        }
        return value;
    }

    /** Free text over its bound; the message names the field and the bound, never the text. */
    public static final class TextTooLong extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        private final String field;

        TextTooLong(String field, int length, int maxLength) {
            super("Field '" + field + "' is " + length + " characters long; at most " + maxLength + " are accepted.");
            this.field = field;
        }

        /** The field that was too long. */
        public String field() {
            return field;
        }
    }
}
