package dev.airlock.kernel.problem;

/**
 * The body of a problem answered before any controller is reached (by a security filter), as
 * {@code application/problem+json}: the same shape the problem handlers write.
 */
public final class ProblemJson {

    /** The media type of a problem body. */
    public static final String MEDIA_TYPE = "application/problem+json";

    private ProblemJson() {}

    /** {@code {"type":"about:blank","title":…,"status":…,"detail":…}}, every string escaped for JSON. */
    public static String body(int status, String title, String detail) {
        return body("about:blank", status, title, detail);
    }

    /** {@code {"type":…,"title":…,"status":…,"detail":…}}, every string escaped for JSON. */
    public static String body(String type, int status, String title, String detail) {
        return "{\"type\":" + quote(type) + ",\"title\":" + quote(title) + ",\"status\":" + status + ",\"detail\":"
                + quote(detail) + "}";
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
