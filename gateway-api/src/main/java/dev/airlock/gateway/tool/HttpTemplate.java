package dev.airlock.gateway.tool;

import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.problem.InvalidRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The request an HTTP tool sends, with parameter placeholders: the method, a path appended to the
 * upstream's base URL (each {@code {param}} percent-encoded inside its segment, so that a value can
 * never add a {@code /}, a {@code ?}, a {@code #} or a dot segment), query parameters (values
 * percent-encoded), headers (values free of control characters) and a JSON body (values as typed
 * JSON values). Credentials are never part of it: the upstream's {@code auth} adds them when the
 * request is sent.
 */
public final class HttpTemplate {

    /** Headers a tool may not set: credentials (only {@code auth} sends those) and the message's framing. */
    static final Set<String> FORBIDDEN_HEADERS = Set.of(
            "authorization",
            "proxy-authorization",
            "cookie",
            "host",
            "content-length",
            "transfer-encoding",
            "connection",
            "upgrade",
            "te",
            "trailer",
            "expect",
            "keep-alive",
            "proxy-connection");

    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    private static final Pattern METHOD = Pattern.compile("[A-Z]{1,16}");
    private static final Pattern QUERY_NAME = Pattern.compile("[A-Za-z0-9._~-]+");
    private static final Pattern PATH_LITERAL = Pattern.compile("[A-Za-z0-9._~!$&'()*+,;=:@%-]*");
    private static final Pattern JSON_TYPE =
            Pattern.compile("application/([a-z0-9.+-]+\\+)?json(\\s*;.*)?", Pattern.CASE_INSENSITIVE);

    private final String upstream;
    private final String method;
    private final String path;
    private final List<TextTemplate> segments;
    private final Map<String, TextTemplate> query;
    private final Map<String, TextTemplate> headers;
    private final @Nullable JsonBodyTemplate body;
    private final boolean idempotent;
    private final Set<String> parameters;

    private HttpTemplate(
            String upstream,
            String method,
            String path,
            List<TextTemplate> segments,
            Map<String, TextTemplate> query,
            Map<String, TextTemplate> headers,
            @Nullable JsonBodyTemplate body,
            boolean idempotent) {
        this.upstream = upstream;
        this.method = method;
        this.path = path;
        this.segments = List.copyOf(segments);
        this.query = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(query));
        this.headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        this.body = body;
        this.idempotent = idempotent;
        Set<String> used = new LinkedHashSet<>();
        segments.forEach(s -> used.addAll(s.parameters()));
        query.values().forEach(q -> used.addAll(q.parameters()));
        headers.values().forEach(h -> used.addAll(h.parameters()));
        if (body != null) {
            used.addAll(body.parameters());
        }
        this.parameters = Set.copyOf(used);
    }

    /**
     * Parses a tool's {@code http} settings.
     *
     * @param key the configuration key of {@code http}
     * @throws InvalidConfigurationException naming the key that is wrong
     */
    public static HttpTemplate parse(
            String upstream,
            String method,
            String path,
            Map<String, String> query,
            Map<String, String> headers,
            @Nullable String body,
            boolean idempotent,
            Set<String> known,
            String key) {
        String verb = method.strip().toUpperCase(Locale.ROOT);
        if (!METHOD.matcher(verb).matches()) {
            throw new InvalidConfigurationException(key + ".method", "'" + method + "' is not an HTTP method");
        }
        if (!path.startsWith("/")) {
            throw new InvalidConfigurationException(key + ".path", "must start with '/'");
        }
        List<TextTemplate> segments = new ArrayList<>();
        String[] parts = path.substring(1).split("/", -1);
        for (int i = 0; i < parts.length; i++) {
            if (parts.length == 1 && parts[i].isEmpty()) {
                break;
            }
            TextTemplate segment = TextTemplate.parse(parts[i], known, key + ".path");
            if (!segment.parameters().isEmpty()
                    && !segment.source()
                            .equals("{" + segment.parameters().iterator().next() + "}")) {
                throw new InvalidConfigurationException(
                        key + ".path",
                        "'" + parts[i] + "': a path parameter is a whole segment ('/{name}/'), never part of one");
            }
            for (String literal : segment.literals()) {
                if (!PATH_LITERAL.matcher(literal).matches()) {
                    throw new InvalidConfigurationException(
                            key + ".path",
                            "'" + literal + "' holds a character a URL path cannot hold as it is (percent-encode it)");
                }
            }
            if (segment.parameters().isEmpty() && (parts[i].equals(".") || parts[i].equals(".."))) {
                throw new InvalidConfigurationException(key + ".path", "must not hold '.' or '..' segments");
            }
            if (segment.parameters().isEmpty() && parts[i].isEmpty() && i < parts.length - 1) {
                throw new InvalidConfigurationException(key + ".path", "must not hold an empty segment ('//')");
            }
            segments.add(segment);
        }
        Map<String, TextTemplate> queries = new LinkedHashMap<>();
        query.forEach((name, value) -> {
            if (!QUERY_NAME.matcher(name).matches()) {
                throw new InvalidConfigurationException(
                        key + ".query." + name, "query parameter names use letters, digits and '-', '.', '_', '~'");
            }
            queries.put(name, TextTemplate.parse(value == null ? "" : value, known, key + ".query." + name));
        });
        Map<String, TextTemplate> sent = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            String where = key + ".headers." + name;
            if (!TOKEN.matcher(name).matches()) {
                throw new InvalidConfigurationException(where, "is not a header name");
            }
            if (FORBIDDEN_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new InvalidConfigurationException(
                        where,
                        "a tool may not set " + name
                                + ": credentials go only through the upstream's auth, and Airlock frames the message itself");
            }
            TextTemplate template = TextTemplate.parse(value == null ? "" : value, known, where);
            for (String literal : template.literals()) {
                if (!literal.chars().allMatch(c -> c == '\t' || c >= 0x20 && c < 0x7f)) {
                    throw new InvalidConfigurationException(where, "may hold only printable ASCII");
                }
            }
            if (name.equalsIgnoreCase("content-type")
                    && (body == null
                            || !template.parameters().isEmpty()
                            || !JSON_TYPE.matcher(template.source()).matches())) {
                throw new InvalidConfigurationException(
                        where,
                        "a body is sent as JSON: Content-Type may only name a JSON type, without parameters, and only with a body");
            }
            sent.put(name, template);
        });
        JsonBodyTemplate json = null;
        if (body != null) {
            if (verb.equals("GET") || verb.equals("HEAD")) {
                throw new InvalidConfigurationException(key + ".body", "a " + verb + " request has no body");
            }
            json = JsonBodyTemplate.parse(body, known, key + ".body");
        }
        return new HttpTemplate(upstream, verb, path, segments, queries, sent, json, idempotent);
    }

    /** The upstream's name. */
    public String upstream() {
        return upstream;
    }

    /** The method. */
    public String method() {
        return method;
    }

    /** Whether a request that fails may be sent again: its method is idempotent, or the tool says so. */
    public boolean idempotent() {
        return idempotent || dev.airlock.egress.EgressRequest.idempotentMethod(method);
    }

    /** The parameters the request uses. */
    public Set<String> parameters() {
        return parameters;
    }

    /** The template as configured, for the recorded definition. */
    public Map<String, Object> definition() {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("upstream", upstream);
        definition.put("method", method);
        definition.put("path", path);
        Map<String, String> q = new LinkedHashMap<>();
        query.forEach((n, t) -> q.put(n, t.source()));
        definition.put("query", q);
        Map<String, String> h = new LinkedHashMap<>();
        headers.forEach((n, t) -> h.put(n, t.source()));
        definition.put("headers", h);
        definition.put("body", body == null ? null : body.source());
        definition.put("idempotent", idempotent);
        return definition;
    }

    /** Slashes' look-alikes that no Unicode normalization maps to '/' or '\\' but best-fit conversions do. */
    private static final String SLASH_LIKE = "/\\\u2215\u2216\u2044\u29F8\u29F9\uFE68\u2571\u2572";

    private static boolean hasSlash(String segment) {
        return segment.chars().anyMatch(c -> SLASH_LIKE.indexOf(c) >= 0);
    }

    private static boolean isDots(String segment) {
        return segment.equals(".") || segment.equals("..");
    }

    /**
     * The request for checked values, sent to an upstream whose base URL is {@code baseUrl}.
     *
     * @throws InvalidRequest naming the argument when a value cannot go where the template puts it
     */
    public RenderedRequest render(String tool, String baseUrl, Map<String, Object> values) {
        List<String> errors = new ArrayList<>();
        StringBuilder url =
                new StringBuilder(baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl);
        for (TextTemplate segment : segments) {
            String plain = segment.render(values);
            // Servers that fold Unicode (NFKC, or Windows' best fit) read a full-width solidus as '/' and
            // "\u2025" as "..": the segment is judged as such a server would read it, too.
            String folded = java.text.Normalizer.normalize(plain, java.text.Normalizer.Form.NFKC);
            if (!segment.parameters().isEmpty()
                    && (plain.isEmpty() || isDots(plain) || folded.isEmpty() || isDots(folded))) {
                errors.add("arguments." + segment.parameters().iterator().next()
                        + ": makes a URL path segment empty, '.' or '..' (or one that reads as such once normalized)");
            } else if (!segment.parameters().isEmpty() && (hasSlash(plain) || hasSlash(folded))) {
                // Encoded as %2F and %5C they stay within the segment here, but servers and proxies
                // that decode them would route the request elsewhere: refused, not encoded.
                errors.add("arguments." + segment.parameters().iterator().next()
                        + ": may not contain '/' or '\\' (nor a character read as one) in a URL path segment");
            }
            url.append('/').append(segment.render(values, s -> s, HttpTemplate::encode));
        }
        if (segments.isEmpty()) {
            url.append('/');
        }
        String separator = "?";
        for (Map.Entry<String, TextTemplate> q : query.entrySet()) {
            url.append(separator)
                    .append(q.getKey())
                    .append('=')
                    .append(q.getValue().render(values, HttpTemplate::encode, HttpTemplate::encode));
            separator = "&";
        }
        List<RenderedRequest.Header> sent = new ArrayList<>();
        headers.forEach((name, template) -> {
            for (String parameter : template.parameters()) {
                String value = String.valueOf(values.get(parameter));
                if (!value.chars().allMatch(c -> c == '\t' || c >= 0x20 && c < 0x7f)) {
                    errors.add("arguments." + parameter + ": goes into header " + name
                            + ", which may hold only printable ASCII (no line breaks or control characters)");
                }
            }
            sent.add(new RenderedRequest.Header(name, template.render(values)));
        });
        if (!errors.isEmpty()) {
            throw InvalidRequest.arguments(tool, errors);
        }
        byte[] bytes = null;
        String view = null;
        String contentType = null;
        if (body != null) {
            JsonNode json = body.render(values);
            bytes = JsonBodyTemplate.bytes(json);
            view = JsonBodyTemplate.pretty(json);
            contentType = sent.stream()
                    .filter(h -> h.name().equalsIgnoreCase("content-type"))
                    .map(RenderedRequest.Header::value)
                    .findFirst()
                    .orElse("application/json");
            if (sent.stream().noneMatch(h -> h.name().equalsIgnoreCase("content-type"))) {
                sent.add(new RenderedRequest.Header("Content-Type", contentType));
            }
        }
        return new RenderedRequest(upstream, method, url.toString(), sent, bytes, view, contentType, idempotent());
    }

    /** Percent-encodes every byte of the UTF-8 form except the unreserved characters of RFC 3986. */
    static String encode(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'A' && c <= 'Z'
                    || c >= 'a' && c <= 'z'
                    || c >= '0' && c <= '9'
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~') {
                out.append((char) c);
            } else {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
