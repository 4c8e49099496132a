package dev.airlock.kernel.problem;

/** Checks of text a request carries that every side makes the same way. */
public final class RequestText {

    private RequestText() {}

    /**
     * The index of the first half of a surrogate pair in {@code text} without its other half, or
     * -1. Such a half is no character: encoded for the database or a process it becomes '?', so
     * what would be stored or run is not what was sent.
     */
    public static int firstUnpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return i;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
