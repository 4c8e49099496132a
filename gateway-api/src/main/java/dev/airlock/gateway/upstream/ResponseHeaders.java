package dev.airlock.gateway.upstream;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The response headers an HTTP tool's envelope shows, as facts Airlock writes: an upstream chooses
 * their values, so only what parses is kept, in a form that can carry no words of the upstream's.
 * {@code content-type} becomes its media type (lower case, with its {@code charset} if the JDK knows
 * it, by the JDK's name for it), {@code content-length} its digits; anything else, or a value that does not parse, is
 * left out.
 */
final class ResponseHeaders {

    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}";
    private static final Pattern MEDIA_TYPE = Pattern.compile("\\s*(" + TOKEN + ")/(" + TOKEN + ")\\s*(;.*)?");
    private static final Pattern CHARSET =
            Pattern.compile(";\\s*charset\\s*=\\s*\"?(" + TOKEN + ")\"?\\s*(?=;|$)", Pattern.CASE_INSENSITIVE);
    private static final Pattern LENGTH = Pattern.compile("[0-9]{1,19}");

    private ResponseHeaders() {}

    private static boolean supported(String charset) {
        try {
            return java.nio.charset.Charset.isSupported(charset);
        } catch (java.nio.charset.IllegalCharsetNameException e) {
            return false;
        }
    }

    /** The headers of {@code received} (lower-case names) that an envelope shows. */
    static Map<String, String> shown(Map<String, String> received) {
        Map<String, String> shown = new LinkedHashMap<>();
        String type = received.get("content-type");
        if (type != null) {
            Matcher media = MEDIA_TYPE.matcher(type);
            if (media.matches()) {
                String value = (media.group(1) + "/" + media.group(2)).toLowerCase(Locale.ROOT);
                Matcher charset = media.group(3) == null ? null : CHARSET.matcher(media.group(3));
                if (charset != null && charset.find() && supported(charset.group(1))) {
                    value += "; charset="
                            + java.nio.charset.Charset.forName(charset.group(1))
                                    .name()
                                    .toLowerCase(Locale.ROOT);
                }
                shown.put("content-type", value);
            }
        }
        String length = received.get("content-length");
        if (length != null && LENGTH.matcher(length.strip()).matches()) {
            shown.put("content-length", length.strip());
        }
        return shown;
    }
}
