package dev.airlock.gateway.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * What the SDK's stateless servlet transport cannot do, done against the specification in
 * front of it. That transport answers every POST with one JSON body, so it can send nothing
 * while a call waits; streamable HTTP lets a server answer a POST with an SSE stream instead,
 * which needs no session. So a {@code tools/call} whose {@code _meta.progressToken} is set is
 * answered here as a stream: {@code notifications/progress} while the run waits for approval
 * or runs, then the result, all on the one response. Everything else goes on to the SDK
 * transport, which gets the body this filter read.
 *
 * <p>Before that, for every POST: an {@code MCP-Protocol-Version} header naming a revision the
 * endpoint does not speak is a 400 (the specification's rule), and a body over the size limit
 * is a 413.
 */
final class ProgressStreams extends OncePerRequestFilter {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ProgressStreams.class);

    static final String PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";

    private final AirlockMcpHandler handler;
    private final McpJsonMapper mapper;
    private final Function<HttpServletRequest, McpTransportContext> contexts;
    private final List<String> protocolVersions;
    private final int maxBody;

    ProgressStreams(
            AirlockMcpHandler handler,
            McpJsonMapper mapper,
            Function<HttpServletRequest, McpTransportContext> contexts,
            List<String> protocolVersions,
            int maxBody) {
        this.handler = handler;
        this.mapper = mapper;
        this.contexts = contexts;
        this.protocolVersions = List.copyOf(protocolVersions);
        this.maxBody = maxBody;
        this.plain = tools.jackson.databind.json.JsonMapper.builder(
                        dev.airlock.gateway.http.BoundedJson.factory(maxBody))
                .build();
    }

    /**
     * Only the MCP endpoint. Its registration names the MCP servlet, which the container honours;
     * this holds wherever else the filter is put (MockMvc applies every filter to every path), by
     * the decoded path the container routes by.
     */
    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = dev.airlock.gateway.http.RequestBodyLimit.path(request);
        return !(path.equals(McpConfiguration.PATH) || path.startsWith(McpConfiguration.PATH + "/"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!"POST".equals(request.getMethod())) {
            if ("OPTIONS".equals(request.getMethod())) {
                chain.doFilter(request, response);
                return;
            }
            // No stream of server-initiated messages and no sessions to end: GET, DELETE and the
            // rest are 405 in JSON-RPC's shape, as every other refusal here (the SDK would answer
            // with the container's error page).
            response.setHeader("Allow", "POST");
            error(
                    response,
                    HttpServletResponse.SC_METHOD_NOT_ALLOWED,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Only POST is served here: one JSON-RPC message per request.");
            return;
        }
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).strip().startsWith("application/json")) {
            error(
                    response,
                    HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Content-Type must be application/json.");
            return;
        }
        if (!dev.airlock.gateway.http.StrictUtf8.namesUtf8OrNone(type)) {
            // The body is read as UTF-8 whatever it says; a proxy that believes the header would read another.
            error(
                    response,
                    HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Messages are UTF-8 JSON: name no charset, or charset=utf-8.");
            return;
        }
        String accept = request.getHeader("Accept");
        if (accept == null || !accept.contains("application/json") || !accept.contains("text/event-stream")) {
            error(
                    response,
                    HttpServletResponse.SC_NOT_ACCEPTABLE,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Accept must list both application/json and text/event-stream.");
            return;
        }
        List<String> versions = java.util.Collections.list(request.getHeaders(PROTOCOL_VERSION_HEADER));
        if (versions.size() > 1
                || versions.size() == 1
                        && !protocolVersions.contains(versions.getFirst().strip())) {
            error(
                    response,
                    HttpServletResponse.SC_BAD_REQUEST,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Unsupported MCP-Protocol-Version; this server speaks " + protocolVersions);
            return;
        }
        byte[] body = read(request);
        if (body == null) {
            error(
                    response,
                    HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "The request body is larger than " + maxBody + " bytes.");
            return;
        }
        tools.jackson.databind.JsonNode message = parse(body);
        if (!(message instanceof tools.jackson.databind.node.ObjectNode)) {
            // One JSON-RPC message per POST, an object: batches, scalars, garbage, a key given twice and
            // anything past the read bounds are refused here, before the SDK, which would answer some of
            // them with its exception object and read a duplicate key as its last value.
            error(
                    response,
                    HttpServletResponse.SC_BAD_REQUEST,
                    McpSchema.ErrorCodes.PARSE_ERROR,
                    "The body must be one JSON-RPC message: a JSON object, each key once, within the size and depth bounds.");
            return;
        }
        String invalid = invalid(message);
        if (invalid != null) {
            error(response, HttpServletResponse.SC_BAD_REQUEST, McpSchema.ErrorCodes.INVALID_REQUEST, invalid);
            return;
        }
        String invalidCall = invalidCall(message);
        if (invalidCall != null) {
            error(response, HttpServletResponse.SC_BAD_REQUEST, McpSchema.ErrorCodes.INVALID_PARAMS, invalidCall);
            return;
        }
        McpSchema.JSONRPCRequest call = progressCall(request, body);
        if (call == null) {
            chain.doFilter(new ReadBody(request, body), response);
            return;
        }
        stream(request, response, call);
    }

    /**
     * The body as JSON, read as UTF-8 only (what the SDK reads it as): bytes that are not UTF-8 (a
     * UTF-16 body, which Jackson alone would detect and read) are no message.
     */
    private tools.jackson.databind.@Nullable JsonNode parse(byte[] body) {
        try {
            String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(body))
                    .toString();
            return plain.readTree(text);
        } catch (java.nio.charset.CharacterCodingException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Why a message is not a JSON-RPC 2.0 message Airlock takes, or null: its {@code jsonrpc} must be
     * exactly {@code "2.0"}; it must be a request or a notification (a {@code method} that is a
     * string; Airlock asks clients nothing, so an answer is refused); an {@code id} a string or an
     * integer, {@code params} an object, and a progress token a string or an integer, as the
     * protocol says. The SDK never sees anything else (it would log the whole body it could not read).
     */
    static @Nullable String invalid(tools.jackson.databind.JsonNode message) {
        tools.jackson.databind.JsonNode version = message.get("jsonrpc");
        if (version == null || !version.isString() || !"2.0".equals(version.asString())) {
            return "jsonrpc must be \"2.0\".";
        }
        tools.jackson.databind.JsonNode method = message.get("method");
        if (method == null || !method.isString() || message.has("result") || message.has("error")) {
            return "The message must be a request or a notification: a method that is a string, no result or error.";
        }
        tools.jackson.databind.JsonNode id = message.get("id");
        if (id != null && !id.isString() && !id.isIntegralNumber()) {
            return "id must be a string or an integer.";
        }
        tools.jackson.databind.JsonNode params = message.get("params");
        if (params != null && !params.isNull() && !params.isObject()) {
            return "params must be an object.";
        }
        tools.jackson.databind.JsonNode token =
                message.path("params").path("_meta").get("progressToken");
        if (token != null && !token.isString() && !token.isIntegralNumber()) {
            return "_meta.progressToken must be a string or an integer.";
        }
        return null;
    }

    /** What a tools/call's params may hold: the SDK would drop anything else without a word. */
    private static final java.util.Set<String> CALL_PARAMS = java.util.Set.of("name", "arguments", "_meta");

    /**
     * Why a tools/call's params cannot be taken as they are, or null: a key besides {@code name},
     * {@code arguments} and {@code _meta} (a misspelt {@code argument} would run the tool with its
     * defaults, as the REST API's unknown fields are refused), a name that is not a string,
     * arguments or {@code _meta} that are not objects, a reason that is not a string.
     */
    static @Nullable String invalidCall(tools.jackson.databind.JsonNode message) {
        tools.jackson.databind.JsonNode method = message.get("method");
        if (method == null || !McpSchema.METHOD_TOOLS_CALL.equals(method.asString())) {
            return null;
        }
        tools.jackson.databind.JsonNode params = message.get("params");
        if (params == null || !params.isObject()) {
            return "tools/call needs params: an object with the tool's name.";
        }
        for (var property : params.properties()) {
            if (!CALL_PARAMS.contains(property.getKey())) {
                return "tools/call takes params name, arguments and _meta only, not '"
                        + AirlockMcpHandler.printable(property.getKey()) + "'.";
            }
        }
        tools.jackson.databind.JsonNode name = params.get("name");
        if (name == null || !name.isString()) {
            return "params.name must be a string.";
        }
        tools.jackson.databind.JsonNode arguments = params.get("arguments");
        if (arguments != null && !arguments.isObject()) {
            return "params.arguments must be an object.";
        }
        tools.jackson.databind.JsonNode meta = params.get("_meta");
        if (meta != null && !meta.isObject()) {
            return "params._meta must be an object.";
        }
        tools.jackson.databind.JsonNode reason = meta == null ? null : meta.get(AirlockMcpHandler.REASON_META);
        if (reason != null && !reason.isString()) {
            return "params._meta[\"" + AirlockMcpHandler.REASON_META + "\"] must be a string.";
        }
        return null;
    }

    private final tools.jackson.databind.json.JsonMapper plain;

    /** The request, when it is a tools/call asking for progress from a client that takes a stream. */
    private McpSchema.@Nullable JSONRPCRequest progressCall(HttpServletRequest request, byte[] body) {
        String accept = request.getHeader("Accept");
        String type = request.getContentType();
        if (accept == null
                || !accept.contains("text/event-stream")
                || !accept.contains("application/json")
                || type == null
                || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            return null;
        }
        try {
            if (McpSchema.deserializeJsonRpcMessage(mapper, new String(body, StandardCharsets.UTF_8))
                            instanceof McpSchema.JSONRPCRequest jsonRpc
                    && McpSchema.METHOD_TOOLS_CALL.equals(jsonRpc.method())
                    && jsonRpc.params() instanceof Map<?, ?> params
                    && params.get("_meta") instanceof Map<?, ?> meta
                    && meta.get("progressToken") != null) {
                return jsonRpc;
            }
        } catch (IOException | RuntimeException e) {
            // Not a well-formed message: the SDK transport answers it with its error.
        }
        return null;
    }

    private void stream(HttpServletRequest request, HttpServletResponse response, McpSchema.JSONRPCRequest call)
            throws IOException {
        log.debug(
                "Answering tools/call {} as a stream with progress",
                AirlockMcpHandler.printable(String.valueOf(call.id())));
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType("text/event-stream");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no");
        PrintWriter writer = response.getWriter();
        AtomicLong progress = new AtomicLong();
        AirlockMcpHandler.ProgressSink sink = (token, message) -> {
            McpSchema.ProgressNotification notification =
                    new McpSchema.ProgressNotification(token, (double) progress.incrementAndGet(), null, message, null);
            log.debug("Progress of tools/call {}: {}", AirlockMcpHandler.printable(String.valueOf(call.id())), message);
            return event(
                    writer, new McpSchema.JSONRPCNotification(McpSchema.METHOD_NOTIFICATION_PROGRESS, notification));
        };
        Map<String, Object> values = new HashMap<>();
        McpTransportContext base = contexts.apply(request);
        values.put(AirlockMcpHandler.AGENT, base.get(AirlockMcpHandler.AGENT));
        values.put(AirlockMcpHandler.PROGRESS, sink);
        values.values().removeIf(java.util.Objects::isNull);
        McpSchema.JSONRPCResponse answer =
                handler.handleRequest(McpTransportContext.create(values), call).block();
        event(writer, answer);
    }

    /** Writes one SSE event carrying a JSON-RPC message; false when the client is gone. */
    private boolean event(PrintWriter writer, @Nullable Object message) {
        String json;
        try {
            json = mapper.writeValueAsString(message);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        writer.write("event: message\ndata: " + json + "\n\n");
        writer.flush();
        return !writer.checkError();
    }

    private byte @Nullable [] read(HttpServletRequest request) throws IOException {
        if (request.getContentLengthLong() > maxBody) {
            return null;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (InputStream in = request.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                if (body.size() + n > maxBody) {
                    return null;
                }
                body.write(buffer, 0, n);
            }
        }
        return body.toByteArray();
    }

    /** A JSON-RPC error with no id, as the specification allows for a request refused before it was read. */
    static void error(HttpServletResponse response, int status, int code, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter()
                .write("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + code + ",\"message\":\""
                        + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}}");
    }

    /** The request with its body already read, for the SDK transport to read again. */
    private static final class ReadBody extends HttpServletRequestWrapper {

        private final byte[] body;

        ReadBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the body is already read");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }
    }
}
