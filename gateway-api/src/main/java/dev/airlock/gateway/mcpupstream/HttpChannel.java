package dev.airlock.gateway.mcpupstream;

import dev.airlock.egress.EgressRequest;
import dev.airlock.egress.EgressResult;
import dev.airlock.egress.EgressTermination;
import dev.airlock.egress.ResponseLimitException;
import dev.airlock.egress.Upstream;
import dev.airlock.persistence.run.Termination;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A streamable-HTTP MCP server's connection, through the same guarded client as HTTP tools: every
 * message is a POST to the server's URL; the answer is a JSON body or an event stream that carries
 * the server's notifications and requests before the answer. The session id the server gives at
 * initialization goes with every later message; a server that forgets it (404) ends the
 * connection, and the server's supervisor connects again.
 */
final class HttpChannel extends McpChannel {

    private final Upstream client;
    private final URI url;
    private final Supplier<List<EgressRequest.Header>> credentials;
    private volatile @Nullable String session;
    private volatile @Nullable String protocolVersion;

    /**
     * @param credentials the credential's header(s), read at each message (secrets are not held)
     */
    HttpChannel(
            String name,
            JsonMapper json,
            Consumer<String> notifications,
            Supplier<dev.airlock.sanitizer.SecretRedactor> redactor,
            Upstream client,
            URI url,
            Supplier<List<EgressRequest.Header>> credentials) {
        super(name, json, notifications, redactor);
        this.client = client;
        this.url = url;
        this.credentials = credentials;
    }

    /** The protocol version agreed at initialization, sent with every later message. */
    void protocolVersion(String version) {
        this.protocolVersion = version;
    }

    @Override
    protected void transmit(byte[] message, Duration timeout, dev.airlock.egress.CallControl control)
            throws McpFailure {
        JsonNode sent = json.readTree(message);
        JsonNode id = sent.get("method") != null ? sent.get("id") : null;
        List<EgressRequest.Header> headers;
        try {
            headers = new ArrayList<>(credentials.get());
        } catch (IllegalStateException e) {
            throw new McpFailure(Termination.REFUSED, String.valueOf(e.getMessage()));
        }
        headers.add(new EgressRequest.Header("Accept", "application/json, text/event-stream"));
        String sessionId = session;
        if (sessionId != null) {
            headers.add(new EgressRequest.Header("Mcp-Session-Id", sessionId));
        }
        String version = protocolVersion;
        if (version != null) {
            headers.add(new EgressRequest.Header("MCP-Protocol-Version", version));
        }
        // A POST is never redirected (a 307 or 308 would send it again, a 301 to 303 turn it into a GET); should that
        // change, the server's credential would still go only to its own endpoint or below it.
        EgressRequest request =
                new EgressRequest("POST", url, headers, message, "application/json", false, url.toString());
        EgressResult result = client.call(
                request,
                (status, contentType, body) -> {
                    if (status / 100 != 2) {
                        body.readNBytes(4096);
                        return;
                    }
                    String type = contentType == null
                            ? ""
                            : contentType
                                    .toLowerCase(Locale.ROOT)
                                    .split(";", 2)[0]
                                    .strip();
                    if (type.equals("text/event-stream")) {
                        readEvents(body, id);
                    } else if (type.equals("application/json")) {
                        byte[] answer = body.readAllBytes();
                        if (answer.length > 0) {
                            deliver(answer);
                        }
                    } else {
                        body.readNBytes(4096);
                    }
                },
                control,
                timeout);
        String given = result.headers().get("mcp-session-id");
        if (given != null && session == null) {
            if (!given.matches("[\\x21-\\x7E]{1,256}")) {
                fail(Termination.SERVER_DOWN, "the server's session id is not visible ASCII");
                throw new McpFailure(Termination.SERVER_DOWN, "the server's session id is not visible ASCII");
            }
            session = given;
        }
        if (result.termination() != EgressTermination.RESPONDED) {
            throw new McpFailure(
                    termination(result.termination()), "the call to the server failed: " + result.reason());
        }
        Integer status = result.status();
        if (status != null && status == 404 && sessionId != null) {
            fail(Termination.SERVER_DOWN, "the server ended the session");
            throw new McpFailure(Termination.SERVER_DOWN, "the server ended the session");
        }
        if (status == null || status / 100 != 2) {
            throw new McpFailure(Termination.SERVER_DOWN, "the server answered HTTP " + status);
        }
    }

    /** Delivers each event's data until the answer to {@code id} has come. */
    private void readEvents(InputStream body, @Nullable JsonNode id) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        StringBuilder data = new StringBuilder();
        try {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.isEmpty()) {
                    if (!data.isEmpty()) {
                        byte[] message = data.toString().getBytes(StandardCharsets.UTF_8);
                        data.setLength(0);
                        deliver(message);
                        if (id != null && answers(message, id)) {
                            return;
                        }
                    }
                } else if (line.startsWith("data:")) {
                    if (!data.isEmpty()) {
                        data.append('\n');
                    }
                    data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
                }
            }
        } catch (ResponseLimitException e) {
            fail(Termination.RESPONSE_LIMIT, "the server's answer exceeded its max-response-bytes");
            throw e;
        }
    }

    private boolean answers(byte[] message, JsonNode id) {
        try {
            JsonNode node = json.readTree(message);
            return node.get("method") == null && id.equals(node.get("id"));
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static Termination termination(EgressTermination termination) {
        return switch (termination) {
            case TIMED_OUT -> Termination.TIMED_OUT;
            case RESPONSE_LIMIT -> Termination.RESPONSE_LIMIT;
            case REFUSED -> Termination.REFUSED;
            case CANCELLED -> Termination.CANCELLED;
            default -> Termination.SERVER_DOWN;
        };
    }

    @Override
    public void close() {
        fail(Termination.SERVER_DOWN, "the connection was closed");
    }
}
