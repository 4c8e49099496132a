package dev.airlock.gateway.mcpupstream;

import dev.airlock.persistence.run.Termination;
import dev.airlock.sanitizer.TerminalSanitizer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One JSON-RPC connection to an upstream MCP server, whatever carries it: requests wait for the
 * answer with their id, bounded in time; the server's own requests get an answer (ping, or "not
 * supported": Airlock offers the server no sampling, roots or elicitation); its notifications go to
 * whoever asked for them. Everything the server sends is untrusted: it is parsed as data, logged
 * only sanitized, and never answered with anything but the fixed replies above.
 */
abstract class McpChannel implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(McpChannel.class);
    /** Longest text of the server's own (logging) we put in a log line. */
    static final int LOG_TEXT_LIMIT = 500;

    protected final String name;
    protected final JsonMapper json;
    protected final java.util.function.Supplier<dev.airlock.sanitizer.SecretRedactor> redactor;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final Consumer<String> notifications;
    private volatile @Nullable String closed;
    /** Log messages of the server logged so far; past {@link #MESSAGES_LOGGED} they are dropped. */
    private final AtomicLong logged = new AtomicLong();

    static final int MESSAGES_LOGGED = 1000;

    /**
     * @param name          {@code <tenant>/<server>}, for logs
     * @param notifications told the method of every notification the server sends outside a request
     */
    McpChannel(
            String name,
            JsonMapper json,
            Consumer<String> notifications,
            java.util.function.Supplier<dev.airlock.sanitizer.SecretRedactor> redactor) {
        this.name = name;
        this.redactor = redactor;
        this.json = json;
        this.notifications = notifications;
    }

    /** An answer: the complete message's bytes as received, and the message. */
    record Reply(byte[] raw, JsonNode message) {

        /** The JSON-RPC error, or null for a result. */
        @Nullable
        JsonNode error() {
            JsonNode error = message.get("error");
            return error == null || error.isNull() ? null : error;
        }

        /** The result (an empty object when absent). */
        JsonNode result() {
            JsonNode result = message.get("result");
            return result == null ? tools.jackson.databind.node.JsonNodeFactory.instance.objectNode() : result;
        }
    }

    private record Pending(
            CompletableFuture<Reply> answer, @Nullable Consumer<JsonNode> progress) {}

    /** Sends one message; the answer, if any, arrives through {@link #deliver}. */
    protected void transmit(byte[] message, Duration timeout) throws McpFailure {
        transmit(message, timeout, dev.airlock.egress.CallControl.NONE);
    }

    /**
     * Sends one message; the answer, if any, arrives through {@link #deliver}.
     *
     * @param control lets a cancellation of the request cut what carries it (an HTTP answer being read)
     */
    protected abstract void transmit(byte[] message, Duration timeout, dev.airlock.egress.CallControl control)
            throws McpFailure;

    /** Ends the connection; every request waiting ends with SERVER_DOWN. */
    @Override
    public abstract void close();

    /** Whether the connection is usable. */
    boolean isOpen() {
        return closed == null;
    }

    /** Why the connection is not usable, or null. */
    @Nullable
    String closedReason() {
        return closed;
    }

    /**
     * Sends {@code method} with {@code params} and waits up to {@code timeout} for its answer.
     *
     * @param progress  told each progress notification of this request, or null for none asked
     * @param onCancel  registers what cancelling the request does (it ends with CANCELLED, and the server is told)
     */
    Reply request(
            String method,
            Map<String, Object> params,
            Duration timeout,
            @Nullable Consumer<JsonNode> progress,
            Consumer<Runnable> onCancel)
            throws McpFailure {
        String why = closed;
        if (why != null) {
            throw new McpFailure(Termination.SERVER_DOWN, why);
        }
        long id = ids.incrementAndGet();
        Map<String, Object> sent = new LinkedHashMap<>(params);
        if (progress != null) {
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("progressToken", id);
            sent.put("_meta", meta);
        }
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("id", id);
        message.put("method", method);
        message.put("params", sent);
        Pending waiting = new Pending(new CompletableFuture<>(), progress);
        pending.put(id, waiting);
        java.util.concurrent.atomic.AtomicReference<@Nullable Runnable> abort =
                new java.util.concurrent.atomic.AtomicReference<>();
        // A cancel that comes before the request is sent (while the listing is read, or before this
        // call at all: onCancel runs the action at once then) keeps it from being sent; one that
        // comes after cuts the exchange and tells the server.
        // While it is being written, the server has not seen the request: the writer tells it of the
        // cancel once the request is out, never before (a cancel of an unknown id is ignored).
        java.util.concurrent.atomic.AtomicBoolean sending = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean out = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean cancelled = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable tellServer = () ->
                notifyQuietly("notifications/cancelled", Map.of("requestId", id, "reason", "cancelled by Airlock"));
        onCancel.accept(() -> {
            if (waiting.answer()
                    .completeExceptionally(new McpFailure(Termination.CANCELLED, "the run was cancelled"))) {
                boolean written;
                synchronized (sending) {
                    cancelled.set(true);
                    if (!sending.get()) {
                        return;
                    }
                    written = out.get();
                }
                Runnable cut = abort.get();
                if (cut != null) {
                    cut.run();
                }
                if (written) {
                    tellServer.run();
                }
            }
        });
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            synchronized (sending) {
                if (cancelled.get()) {
                    throw new McpFailure(Termination.CANCELLED, "the run was cancelled before its call was sent");
                }
                sending.set(true);
            }
            try {
                transmit(json.writeValueAsBytes(message), timeout, abort::set);
            } finally {
                // Out, or cut while it went out (an HTTP exchange is cut by the cancel itself).
                boolean cancelledWhileSending;
                synchronized (sending) {
                    out.set(true);
                    cancelledWhileSending = cancelled.get();
                }
                if (cancelledWhileSending) {
                    tellServer.run();
                }
            }
            long left = deadline - System.nanoTime();
            return waiting.answer().get(Math.max(left, 0), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            notifyQuietly("notifications/cancelled", Map.of("requestId", id, "reason", "timed out in Airlock"));
            throw new McpFailure(Termination.TIMED_OUT, method + " got no answer within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new McpFailure(Termination.CANCELLED, "interrupted while waiting for the server");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof McpFailure failure) {
                throw failure;
            }
            throw new McpFailure(Termination.SERVER_DOWN, "the server's answer could not be read");
        } finally {
            pending.remove(id);
        }
    }

    /** Sends a notification. */
    void notify(String method, Map<String, Object> params) throws McpFailure {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("method", method);
        message.put("params", params);
        transmit(json.writeValueAsBytes(message), Duration.ofSeconds(10));
    }

    private void notifyQuietly(String method, Map<String, Object> params) {
        try {
            if (isOpen()) {
                notify(method, params);
            }
        } catch (McpFailure e) {
            log.debug("MCP server {}: {} not sent: {}", name, method, e.getMessage());
        }
    }

    /** One complete message received from the server, as its bytes. */
    protected void deliver(byte[] raw) {
        JsonNode message;
        try {
            message = json.readTree(raw);
        } catch (JacksonException e) {
            log.warn("MCP server {} sent a message that is not JSON ({} bytes); ignored", name, raw.length);
            return;
        }
        if (!message.isObject()) {
            // A batch or a scalar: MCP's current protocol sends neither.
            log.warn("MCP server {} sent a JSON-RPC message that is not an object; ignored", name);
            return;
        }
        JsonNode id = message.get("id");
        JsonNode method = message.get("method");
        if (method != null && method.isString()) {
            if (id != null && !id.isNull()) {
                answerServerRequest(id, method.asString());
            } else {
                notification(method.asString(), message.get("params"));
            }
            return;
        }
        if (id != null && id.canConvertToLong()) {
            Pending waiting = pending.get(id.asLong());
            if (waiting != null) {
                waiting.answer().complete(new Reply(raw, message));
                return;
            }
        }
        log.debug("MCP server {} answered a request nobody waits for; ignored", name);
    }

    private void notification(String method, @Nullable JsonNode params) {
        switch (method) {
            case "notifications/progress" -> {
                if (params != null && params.get("progressToken") != null) {
                    JsonNode token = params.get("progressToken");
                    Pending waiting = token.canConvertToLong() ? pending.get(token.asLong()) : null;
                    if (waiting != null && waiting.progress() != null) {
                        waiting.progress().accept(params);
                    }
                }
            }
            case "notifications/message" -> {
                long count = logged.incrementAndGet();
                if (count <= MESSAGES_LOGGED) {
                    log.info("MCP server {} logged: {}", name, loggable(params == null ? "" : params.toString()));
                } else if (count == MESSAGES_LOGGED + 1) {
                    log.warn(
                            "MCP server {} logged more than {} messages; the rest of this connection's are dropped",
                            name,
                            MESSAGES_LOGGED);
                }
            }
            default -> notifications.accept(method);
        }
    }

    /** The server asked something of Airlock: only ping is answered with a result. */
    private void answerServerRequest(JsonNode id, String method) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("jsonrpc", "2.0");
        answer.put("id", json.treeToValue(id, Object.class));
        if (method.equals("ping")) {
            answer.put("result", Map.of());
        } else {
            log.info(
                    "MCP server {} asked for {}, which Airlock does not offer upstream servers",
                    name,
                    loggable(method));
            answer.put("error", Map.of("code", -32601, "message", "not offered by this client"));
        }
        try {
            transmit(json.writeValueAsBytes(answer), Duration.ofSeconds(10));
        } catch (McpFailure e) {
            log.debug("MCP server {}: answer to its request not sent: {}", name, e.getMessage());
        }
    }

    /** The connection is gone: every request waiting ends with {@code termination}. */
    protected void fail(Termination termination, String why) {
        if (closed == null) {
            closed = why;
        }
        pending.values().forEach(p -> p.answer().completeExceptionally(new McpFailure(termination, why)));
    }

    /**
     * Untrusted text as it may appear in a log line: sanitized, the server's secret values redacted
     * (before it is cut, so that no part of a value is left at the cut), bounded.
     */
    protected String loggable(String text) {
        return loggable(text, redactor.get());
    }

    /** {@code text} as it may appear in a log line or a reason shown: sanitized, redacted by {@code redactor}, bounded. */
    static String loggable(String text, dev.airlock.sanitizer.SecretRedactor redactor) {
        // Redacted as sent and again as sanitized: a value the sanitizer rewrites is caught either way.
        return bounded(redactor.forSanitizedText().redact(oneLine(redactor.redact(text))));
    }

    /** Untrusted text as it may appear in a log line: sanitized, bounded. */
    static String printable(String text) {
        return bounded(oneLine(text));
    }

    /** Untrusted text sanitized to one line, not bounded (redact it, then bound it). */
    static String oneLine(String text) {
        return TerminalSanitizer.sanitize(text.getBytes(StandardCharsets.UTF_8))
                .replace('\n', ' ')
                .replace('\r', ' ');
    }

    private static String bounded(String clean) {
        return cut(clean, LOG_TEXT_LIMIT);
    }

    /** {@code text} cut to at most {@code limit} characters (code points, never half of one), marked {@code …} if cut. */
    static String cut(String text, int limit) {
        return text.codePointCount(0, text.length()) > limit
                ? text.substring(0, text.offsetByCodePoints(0, limit)) + "…"
                : text;
    }
}
