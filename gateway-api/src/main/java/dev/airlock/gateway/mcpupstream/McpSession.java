package dev.airlock.gateway.mcpupstream;

import dev.airlock.persistence.run.Termination;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The MCP conversation with one upstream server over a {@link McpChannel}: initialization, the
 * listing of its tools (every page, bounded) and calls of its tools.
 */
final class McpSession implements AutoCloseable {

    /** The protocol version Airlock asks for; a server may answer with another it supports. */
    static final String PROTOCOL_VERSION = "2025-06-18";
    /** Pages of a tool listing read at most, and tools kept at most. */
    static final int MAX_PAGES = 50;

    static final int MAX_TOOLS = 1000;

    private final McpChannel channel;
    private final Duration requestTimeout;
    private @Nullable String serverVersion;

    private McpSession(McpChannel channel, Duration requestTimeout) {
        this.channel = channel;
        this.requestTimeout = requestTimeout;
    }

    /**
     * Initializes {@code channel}'s server: the session, once it answered {@code initialize} and was
     * told it is initialized.
     */
    static McpSession initialize(McpChannel channel, Duration timeout, String clientVersion) throws McpFailure {
        McpSession session = new McpSession(channel, timeout);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("protocolVersion", PROTOCOL_VERSION);
        params.put("capabilities", Map.of());
        params.put("clientInfo", Map.of("name", "airlock", "version", clientVersion));
        McpChannel.Reply reply = channel.request("initialize", params, timeout, null, cancel -> {});
        if (reply.error() != null) {
            throw new McpFailure(Termination.UPSTREAM_ERROR, "initialize was refused: " + errorText(reply.error()));
        }
        JsonNode version = reply.result().get("protocolVersion");
        if (version == null || !version.isString()) {
            throw new McpFailure(Termination.UPSTREAM_ERROR, "initialize answered no protocolVersion");
        }
        if (!version.asString().matches("[\\x21-\\x7E]{1,64}")) {
            // It goes back to the server in a header of every request over HTTP: a version no header can carry
            // is the server's error, not a reason for the connection to fail some other way.
            throw new McpFailure(
                    Termination.UPSTREAM_ERROR,
                    "initialize answered a protocolVersion that is not 1 to 64 printable ASCII characters");
        }
        if (channel instanceof HttpChannel http) {
            http.protocolVersion(version.asString());
        }
        JsonNode info = reply.result().get("serverInfo");
        session.serverVersion = info == null ? null : info.path("version").asString(null);
        channel.notify("notifications/initialized", Map.of());
        return session;
    }

    /** The version the server gave of itself, or null. */
    @Nullable
    String serverVersion() {
        return serverVersion;
    }

    /** Whether the connection is usable. */
    boolean isOpen() {
        return channel.isOpen();
    }

    /** Why the connection is not usable, or null. */
    @Nullable
    String closedReason() {
        return channel.closedReason();
    }

    /**
     * Every tool the server lists now, as it lists them, within {@code limit} or one request's time, whichever is
     * shorter; {@code onCancel} registers how cancelling a run cuts the listing read for it.
     */
    List<JsonNode> listTools(Duration limit, Consumer<Runnable> onCancel) throws McpFailure {
        List<JsonNode> tools = new ArrayList<>();
        String cursor = null;
        // The whole listing, every page, within one request's time (or the caller's limit, if shorter).
        Duration within = limit.compareTo(requestTimeout) < 0 ? limit : requestTimeout;
        long deadline = System.nanoTime() + within.toNanos();
        for (int page = 0; page < MAX_PAGES; page++) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new McpFailure(
                        Termination.TIMED_OUT, "the tool listing took longer than " + within.toMillis() + " ms");
            }
            Map<String, Object> params = new LinkedHashMap<>();
            if (cursor != null) {
                params.put("cursor", cursor);
            }
            McpChannel.Reply reply = channel.request("tools/list", params, Duration.ofNanos(left), null, onCancel);
            if (reply.error() != null) {
                throw new McpFailure(Termination.UPSTREAM_ERROR, "tools/list was refused: " + errorText(reply.error()));
            }
            JsonNode listed = reply.result().get("tools");
            if (listed == null || !listed.isArray()) {
                throw new McpFailure(Termination.UPSTREAM_ERROR, "tools/list answered no tools array");
            }
            for (JsonNode tool : listed) {
                if (tools.size() >= MAX_TOOLS) {
                    throw new McpFailure(
                            Termination.UPSTREAM_ERROR, "the server lists more than " + MAX_TOOLS + " tools");
                }
                tools.add(tool);
            }
            JsonNode next = reply.result().get("nextCursor");
            if (next == null
                    || next.isNull()
                    || !next.isString()
                    || next.asString().isEmpty()) {
                return tools;
            }
            cursor = next.asString();
        }
        throw new McpFailure(
                Termination.UPSTREAM_ERROR, "the server's tool listing has more than " + MAX_PAGES + " pages");
    }

    /**
     * Calls {@code tool} with {@code arguments}, waiting up to {@code timeout}; the answer as
     * received (a JSON-RPC error included).
     */
    McpChannel.Reply call(
            String tool,
            Map<String, Object> arguments,
            Duration timeout,
            Consumer<JsonNode> progress,
            Consumer<Runnable> onCancel)
            throws McpFailure {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", tool);
        params.put("arguments", arguments);
        return channel.request("tools/call", params, timeout, progress, onCancel);
    }

    /**
     * A JSON-RPC error as one line: its code and message (untrusted: sanitized, and bounded only far
     * past any secret value's length, so that whoever shows it redacts the server's secret values
     * before cutting it to its own bound).
     */
    static String errorText(@Nullable JsonNode error) {
        if (error == null) {
            return "";
        }
        String message = McpChannel.oneLine(error.path("message").asString(""));
        // The code is the server's too: a string code could carry a line break into the log.
        String code = McpChannel.cut(McpChannel.oneLine(error.path("code").asString("?")), 40);
        return code + " " + McpChannel.cut(message, ERROR_TEXT_LIMIT);
    }

    /** Longest message of a JSON-RPC error kept: far past any secret value, so a cut never splits one. */
    static final int ERROR_TEXT_LIMIT = 16 * 1024;

    @Override
    public void close() {
        channel.close();
    }
}
