package dev.airlock.egress;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One request to send, exactly as it goes out.
 *
 * @param method     the method, upper case
 * @param url        the absolute http or https URL, without user information
 * @param headers    the headers in order, credentials included (they are never logged or returned)
 * @param body       the body bytes; empty for none
 * @param contentType the body's content type, or null for none
 * @param idempotent whether the request may be sent again after a failure: GET, HEAD, PUT, DELETE,
 *                   OPTIONS, or a tool its configuration marks idempotent
 * @param redirectsBelow a URL that redirects must stay at or below (an HTTP tool's base URL), or null
 *                   when the same origin is enough
 */
public record EgressRequest(
        String method,
        URI url,
        List<Header> headers,
        byte[] body,
        @Nullable String contentType,
        boolean idempotent,
        @Nullable String redirectsBelow) {

    /** A request whose redirects need only stay within its origin. */
    public EgressRequest(
            String method,
            URI url,
            List<Header> headers,
            byte[] body,
            @Nullable String contentType,
            boolean idempotent) {
        this(method, url, headers, body, contentType, idempotent, null);
    }

    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "PUT", "DELETE", "OPTIONS");

    public EgressRequest {
        method = method.toUpperCase(Locale.ROOT);
        if (!method.matches("[A-Z]{1,16}")) {
            throw new IllegalArgumentException("not an HTTP method: " + method);
        }
        if (!url.isAbsolute()
                || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))
                || url.getHost() == null) {
            throw new IllegalArgumentException("only absolute http and https URLs are sent");
        }
        if (url.getRawUserInfo() != null) {
            throw new IllegalArgumentException("a URL with user information is never sent");
        }
        headers = List.copyOf(headers);
    }

    /** Whether the method itself is idempotent (GET, HEAD, PUT, DELETE, OPTIONS). */
    public static boolean idempotentMethod(String method) {
        return IDEMPOTENT.contains(method.toUpperCase(Locale.ROOT));
    }

    /**
     * One header: a token name and a value without control characters (no line breaks: a header
     * cannot end early and start another).
     *
     * @param name  the name
     * @param value the value
     */
    public record Header(String name, String value) {

        public Header {
            if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new IllegalArgumentException("not a header name: " + name);
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c < 0x20 && c != '\t' || c == 0x7f) {
                    throw new IllegalArgumentException("the value of header " + name + " holds a control character");
                }
            }
        }
    }
}
