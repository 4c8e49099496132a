package dev.airlock.gateway.mcpupstream;

import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.capture.McpFacts;
import dev.airlock.gateway.capture.StreamCapture;
import dev.airlock.gateway.capture.StreamResult;
import dev.airlock.gateway.tool.McpCallRequest;
import dev.airlock.gateway.tool.ToolSnapshot;
import dev.airlock.kernel.digest.Sha256;
import dev.airlock.persistence.run.Termination;
import dev.airlock.sanitizer.SecretRedactor;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Makes an upstream MCP tool's call for one run: the call as recorded (and approved), sent only if
 * the server still lists the tool under the definition the run was requested under. The answer is
 * untrusted: its text items, its structured content (as JSON text) and a description of every other
 * item (type, size, digest: images, audio and embedded resources stay in the raw artifact) become
 * the run's transcript, sanitized and with the server's secret values redacted; the complete
 * JSON-RPC answer, as received, is the raw artifact.
 */
@Component
public class McpCalls {

    private static final Logger log = LoggerFactory.getLogger(McpCalls.class);
    private static final JsonMapper PRETTY = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private final McpServers servers;
    private final UpstreamProgress progress;
    private final Clock clock;

    McpCalls(McpServers servers, UpstreamProgress progress, Clock clock) {
        this.servers = servers;
        this.progress = progress;
        this.clock = clock;
    }

    /**
     * Makes {@code call} of run {@code runId} of {@code tool} in {@code tenant}; the server's progress
     * notifications are kept for the MCP endpoint ({@link UpstreamProgress}) while it runs.
     *
     * @param onCancel registers what cancelling the run does (the call ends CANCELLED; the server is told)
     */
    public CaptureResult call(
            java.util.UUID runId, String tenant, ToolSnapshot tool, McpCallRequest call, Consumer<Runnable> onCancel) {
        try {
            return callReporting(runId, tenant, tool, call, onCancel);
        } finally {
            progress.forget(runId);
        }
    }

    private CaptureResult callReporting(
            java.util.UUID runId, String tenant, ToolSnapshot tool, McpCallRequest call, Consumer<Runnable> onCancel) {
        Instant started = clock.instant();
        ServerHandle server = servers.handle(tenant, call.server()).orElse(null);
        if (server == null) {
            return failed(
                    started, call, Termination.REFUSED, "MCP server " + call.server() + " is no longer configured");
        }
        Object recorded = tool.mcp() == null ? null : tool.mcp().get("serverSha256");
        if (!server.settingsSha256().equals(recorded)) {
            // The run (and any approval of it) was for the server as it was then: its call must not go
            // to another address, command or sandbox, nor carry another credential.
            return failed(
                    started,
                    call,
                    Termination.REFUSED,
                    "MCP server " + call.server() + " has changed since the run was requested (its command, URL,"
                            + " sandbox, network or credential); ask again");
        }
        if (UpstreamTools.deniedOutright(server.server().settings(), call.tool())) {
            // Set to deny after the run was requested: the runs waiting for people or for a free slot stop
            // too, as a configured tool's do.
            return failed(
                    started, call, Termination.REFUSED, "tool " + call.server() + "." + call.tool() + " is now denied");
        }
        McpChannel.Reply reply;
        try {
            reply = server.call(
                    call.tool(),
                    call.definitionSha256(),
                    call.arguments(),
                    Duration.parse(tool.timeout()),
                    reported -> progress.report(runId, progressMessage(call, reported, server.redactor())),
                    onCancel);
        } catch (McpFailure e) {
            String reason = StreamCapture.inert(String.valueOf(e.getMessage()), server.redactor());
            log.info(
                    "MCP call {}.{} ended {}: {}",
                    call.server(),
                    call.tool(),
                    e.termination(),
                    McpChannel.loggable(reason, server.redactor()));
            return failed(started, call, e.termination(), reason);
        }
        Instant ended = clock.instant();
        JsonNode error = reply.error();
        StreamResult stdout;
        McpFacts facts;
        Termination termination;
        SecretRedactor redactor = server.redactor();
        if (error != null) {
            String reason = McpSession.errorText(error);
            stdout = capture(reply.raw(), "JSON-RPC error " + reason + "\n", tool.maxRetainedBytes(), redactor);
            Integer code =
                    error.path("code").canConvertToInt() ? error.path("code").asInt() : null;
            facts = new McpFacts(call.server(), call.tool(), null, code, StreamCapture.inert(reason, redactor));
            termination = Termination.UPSTREAM_ERROR;
        } else {
            JsonNode result = reply.result();
            Boolean isError =
                    result.path("isError").isBoolean() ? result.path("isError").asBoolean() : null;
            stdout = capture(reply.raw(), render(result, redactor), tool.maxRetainedBytes(), redactor);
            facts = new McpFacts(call.server(), call.tool(), isError, null, null);
            termination = Termination.RESPONDED;
        }
        log.info("MCP call {}.{} -> {} ({} bytes)", call.server(), call.tool(), termination, stdout.observedBytes());
        return new CaptureResult(started, ended, null, termination, null, null, stdout, StreamResult.empty(), facts);
    }

    /**
     * A progress notification of the server as the agent is told it: Airlock's words around the
     * server's, whose text is sanitized, its secret values redacted, then cut to 200 characters.
     */
    static String progressMessage(McpCallRequest call, JsonNode reported, SecretRedactor redactor) {
        StringBuilder message =
                new StringBuilder("running; MCP server ").append(call.server()).append(" reports");
        if (reported.path("progress").isNumber()) {
            message.append(' ').append(number(reported.path("progress")));
            if (reported.path("total").isNumber()) {
                message.append(" of ").append(number(reported.path("total")));
            }
        }
        String text = UpstreamTools.text(reported.get("message"), PROGRESS_TEXT_READ);
        if (text != null) {
            message.append(" in its own words (untrusted): ")
                    .append(McpChannel.cut(
                            redactor.forSanitizedText()
                                    .redact(text)
                                    .replace('\n', ' ')
                                    .replace('\r', ' '),
                            200));
        }
        return message.toString();
    }

    /** How much of a progress message is read before it is redacted and cut to 200 characters. */
    private static final int PROGRESS_TEXT_READ = 16 * 1024;

    /** A number as people write it: {@code 2}, not {@code 2.0}; {@code 2.5} as it is. */
    private static String number(JsonNode value) {
        double number = value.asDouble();
        return number == Math.rint(number) && Math.abs(number) < 1e15
                ? Long.toString((long) number)
                : Double.toString(number);
    }

    /**
     * The result as people and agents read it: text items as they are, structured content as
     * JSON text, and every other item described (it stays in the raw artifact) by its type, size
     * and the digest of its bytes with {@code redactor}'s values replaced (as the digests of streams).
     */
    static String render(JsonNode result, SecretRedactor redactor) {
        StringBuilder text = new StringBuilder();
        JsonNode content = result.path("content");
        if (content.isArray()) {
            for (JsonNode item : content) {
                String type = item.path("type").asString("");
                switch (type) {
                    case "text" -> text.append(item.path("text").asString("")).append('\n');
                    case "image", "audio" ->
                        text.append(describe(
                                        type, item.path("mimeType").asString("unknown"), item.path("data"), redactor))
                                .append('\n');
                    case "resource" -> {
                        JsonNode resource = item.path("resource");
                        JsonNode data = resource.has("blob") ? resource.path("blob") : resource.path("text");
                        text.append("[embedded resource ")
                                .append(resource.path("uri").asString("?"))
                                .append(", ")
                                .append(resource.path("mimeType").asString("unknown"))
                                .append(", ")
                                .append(resource.has("blob") ? decodedSize(data) : utf8(data).length)
                                .append(" bytes, sha256 ")
                                .append(Sha256.hex(redactor.redact(resource.has("blob") ? decoded(data) : utf8(data))))
                                .append(": kept in the raw artifact]\n");
                    }
                    case "resource_link" ->
                        text.append("[resource link ")
                                .append(item.path("uri").asString("?"))
                                .append(" ")
                                .append(item.path("name").asString(""))
                                .append("]\n");
                    default ->
                        text.append("[content of type ")
                                .append(type.isEmpty() ? "(none)" : type)
                                .append(": kept in the raw artifact]\n");
                }
            }
        }
        JsonNode structured = result.get("structuredContent");
        if (structured != null && !structured.isNull()) {
            text.append("structuredContent:\n")
                    .append(PRETTY.writeValueAsString(structured))
                    .append('\n');
        }
        return text.toString();
    }

    private static String describe(String type, String mimeType, JsonNode data, SecretRedactor redactor) {
        return "[" + type + " " + mimeType + ", " + decodedSize(data) + " bytes, sha256 "
                + Sha256.hex(redactor.redact(decoded(data))) + ": kept in the raw artifact]";
    }

    private static byte[] decoded(JsonNode data) {
        try {
            return Base64.getMimeDecoder().decode(data.asString(""));
        } catch (IllegalArgumentException e) {
            return utf8(data);
        }
    }

    private static int decodedSize(JsonNode data) {
        return decoded(data).length;
    }

    private static byte[] utf8(JsonNode data) {
        return data.asString("").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The run's stream: the raw answer's bytes, digest and sizes, with the rendering as its
     * (sanitized, redacted, bounded) text.
     */
    private static StreamResult capture(byte[] raw, String rendering, long maxRetained, SecretRedactor redactor) {
        StreamResult bytes = StreamCapture.of(raw, maxRetained, redactor);
        StreamResult text = StreamCapture.of(rendering.getBytes(StandardCharsets.UTF_8), maxRetained, redactor);
        return new StreamResult(
                bytes.observedBytes(),
                bytes.retainedBytes(),
                bytes.truncated() || text.truncated(),
                bytes.eof(),
                bytes.sha256(),
                text.text(),
                text.removed(),
                // Replaced in the rendering and in the raw answer, as a process's stream counts both.
                text.redactions() + bytes.rawRedactions(),
                bytes.raw(),
                bytes.rawRedactions());
    }

    private CaptureResult failed(Instant started, McpCallRequest call, Termination termination, String reason) {
        return new CaptureResult(
                started,
                clock.instant(),
                null,
                termination,
                null,
                null,
                StreamResult.empty(),
                StreamResult.empty(),
                new McpFacts(call.server(), call.tool(), null, null, reason));
    }
}
