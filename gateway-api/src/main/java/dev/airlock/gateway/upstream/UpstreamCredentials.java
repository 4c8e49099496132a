package dev.airlock.gateway.upstream;

import dev.airlock.egress.EgressRequest;
import dev.airlock.gateway.capture.SecretReference;
import dev.airlock.gateway.capture.SecretSource;
import dev.airlock.gateway.tool.HttpUpstream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

/**
 * The header that carries an upstream's credential, its secret read now from the gateway's own
 * sources; every secret value read is noted for redaction.
 */
public final class UpstreamCredentials {

    private UpstreamCredentials() {}

    /**
     * The credential's header for {@code auth}, its secret values put in {@code values} (by a name
     * for redaction reports).
     *
     * @throws SecretReference.SecretUnavailable when a secret cannot be read
     * @throws IllegalArgumentException when the terms name no source for a part
     */
    public static EgressRequest.Header header(HttpUpstream.Auth auth, SecretSource secrets, Map<String, String> values)
            throws SecretReference.SecretUnavailable {
        return switch (auth.type()) {
            case "bearer" -> {
                String token = read(auth, "token", secrets, values);
                yield new EgressRequest.Header("Authorization", "Bearer " + token);
            }
            case "basic" -> {
                String password = read(auth, "password", secrets, values);
                String encoded = Base64.getEncoder()
                        .encodeToString((auth.username() + ":" + password).getBytes(StandardCharsets.UTF_8));
                values.put(name(auth, "password") + "_BASIC", encoded);
                noteEncodings(values, name(auth, "password") + "_BASIC", encoded);
                yield new EgressRequest.Header("Authorization", "Basic " + encoded);
            }
            case "header" -> new EgressRequest.Header(auth.headerName(), read(auth, "value", secrets, values));
            default -> throw new IllegalArgumentException("unknown auth type " + auth.type());
        };
    }

    private static String read(HttpUpstream.Auth auth, String part, SecretSource secrets, Map<String, String> values)
            throws SecretReference.SecretUnavailable {
        String source = auth.sources().get(part);
        if (source == null) {
            throw new IllegalArgumentException("no source for the " + part);
        }
        String value = SecretReference.parse(source).read(secrets);
        values.put(name(auth, part), value);
        noteEncodings(values, name(auth, part), value);
        return value;
    }

    /**
     * {@code values} (name to secret value) and the forms a tool or an upstream is likely to echo each
     * value in besides its own bytes, each under the value's name with a suffix, so that those are
     * redacted too: JSON-escaped (as most
     * serializers write it, with {@code /} escaped as some do, and with every character outside
     * ASCII as backslash-u escapes, in lower or upper case hex), percent-encoded (a form's {@code +} for a space, and {@code %20}),
     * and Base64. A form equal to the value itself is not noted twice.
     */
    public static Map<String, String> withEncodings(Map<String, String> values) {
        Map<String, String> forms = new java.util.LinkedHashMap<>(values);
        values.forEach((name, value) -> noteEncodings(forms, name, value));
        return forms;
    }

    /** As {@link #withEncodings}, for one value, into {@code values}. */
    static void noteEncodings(Map<String, String> values, String name, String value) {
        note(values, name + "_JSON", jsonEscaped(value, false, false), value);
        note(values, name + "_JSON_SLASHES", jsonEscaped(value, true, false), value);
        String ascii = jsonEscaped(value, true, true);
        note(values, name + "_JSON_ASCII", ascii, value);
        note(values, name + "_JSON_ASCII_UPPER", upperHexEscapes(ascii), value);
        // Go's encoding/json (and others that make JSON safe inside HTML) escape & < > and the line separators.
        note(
                values,
                name + "_JSON_HTML",
                jsonEscaped(value, false, false)
                        .replace("&", "\\u0026")
                        .replace("<", "\\u003c")
                        .replace(">", "\\u003e")
                        .replace("\u2028", "\\u2028")
                        .replace("\u2029", "\\u2029"),
                value);
        String form = URLEncoder.encode(value, StandardCharsets.UTF_8);
        note(values, name + "_URL", form, value);
        String spaces = form.replace("+", "%20");
        note(values, name + "_URL_SPACES", spaces, value);
        // JavaScript's encodeURIComponent leaves ! ' ( ) ~ as they are, which a form's encoding does not.
        note(
                values,
                name + "_URI_COMPONENT",
                spaces.replace("%21", "!")
                        .replace("%27", "'")
                        .replace("%28", "(")
                        .replace("%29", ")")
                        .replace("%7E", "~"),
                value);
        note(
                values,
                name + "_BASE64",
                Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)),
                value);
    }

    private static void note(Map<String, String> values, String name, String encoded, String value) {
        if (!encoded.equals(value) && !values.containsValue(encoded)) {
            values.put(name, encoded);
        }
    }

    /** {@code escaped} with the hex digits of its backslash-u escapes in upper case, as some serializers write them. */
    private static String upperHexEscapes(String escaped) {
        return java.util.regex.Pattern.compile("\\\\u([0-9a-f]{4})")
                .matcher(escaped)
                .replaceAll(m -> "\\\\u" + m.group(1).toUpperCase(Locale.ROOT));
    }

    /** {@code value} as a JSON string's content; {@code /} escaped if asked, and every non-ASCII character if asked. */
    static String jsonEscaped(String value, boolean slashes, boolean ascii) {
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '/' -> out.append(slashes ? "\\/" : "/");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || ascii && c > 0x7e) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    private static String name(HttpUpstream.Auth auth, String part) {
        String shown = auth.shown();
        return shown.substring("[secret ".length(), shown.length() - 1).toUpperCase(Locale.ROOT) + "_"
                + part.toUpperCase(Locale.ROOT);
    }
}
