package dev.airlock.gateway.upstream;

import dev.airlock.egress.CallControl;
import dev.airlock.egress.EgressRequest;
import dev.airlock.egress.EgressResult;
import dev.airlock.egress.Upstream;
import dev.airlock.gateway.capture.CallFacts;
import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.capture.SecretReference;
import dev.airlock.gateway.capture.SecretSource;
import dev.airlock.gateway.capture.StreamCapture;
import dev.airlock.gateway.capture.StreamResult;
import dev.airlock.gateway.tool.HttpUpstream;
import dev.airlock.gateway.tool.RenderedRequest;
import dev.airlock.gateway.tool.ToolSnapshot;
import dev.airlock.persistence.run.Termination;
import dev.airlock.sanitizer.RemovalReport;
import dev.airlock.sanitizer.SecretRedactor;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Makes an HTTP tool's call for one run: the request as it was recorded (and approved), the
 * upstream's credential added now from its secret source, sent through the upstream's guarded
 * client; the answer's body captured like a process's output (bounded by the tool's
 * max-retained-bytes, sanitized, every value of the credential redacted, its raw bytes kept for
 * the restricted artifact), and what Airlock observed of the call. The call is refused, nothing
 * sent, when the upstream is no longer configured, its base URL no longer covers the recorded URL,
 * or its secret cannot be read.
 */
@Component
public class HttpCalls {

    private static final Logger log = LoggerFactory.getLogger(HttpCalls.class);

    private final UpstreamClients clients;
    private final SecretSource secrets;
    private final Clock clock;

    HttpCalls(UpstreamClients clients, SecretSource secrets, Clock clock) {
        this.clients = clients;
        this.secrets = secrets;
        this.clock = clock;
    }

    /**
     * Sends {@code request} of a run of {@code tool} in {@code tenant}.
     *
     * @param control lets the run's cancellation cut the connection
     */
    public CaptureResult call(String tenant, ToolSnapshot tool, RenderedRequest request, CallControl control) {
        HttpUpstream terms = tool.upstream();
        if (terms == null) {
            return refused(request, "the tool's recorded definition names no upstream");
        }
        Upstream client = clients.client(tenant, terms.name()).orElse(null);
        if (client == null) {
            return refused(request, "upstream " + terms.name() + " is no longer configured");
        }
        if (!terms.equals(clients.terms(tenant, terms.name()).orElse(null))) {
            // The request (and any approval of it) was made for the upstream as it was then: its
            // credential must not go to a base URL or network it was not approved for.
            return refused(
                    request,
                    "upstream " + terms.name() + " has changed since the run was requested (base URL,"
                            + " private-network permission or credential); ask again");
        }
        if (!request.url().equals(terms.baseUrl())
                && !request.url().startsWith(terms.baseUrl() + "/")
                && !request.url().startsWith(terms.baseUrl() + "?")) {
            return refused(request, "the recorded URL is not below the upstream's recorded base URL");
        }
        Map<String, String> secretValues = new LinkedHashMap<>();
        List<EgressRequest.Header> headers = new ArrayList<>();
        HttpUpstream.Auth auth = terms.auth();
        if (auth != null) {
            try {
                headers.add(UpstreamCredentials.header(auth, secrets, secretValues));
            } catch (IllegalArgumentException | SecretReference.SecretUnavailable e) {
                return refused(request, "the upstream's secret is not available (" + e.getMessage() + ")");
            }
        }
        request.headers().forEach(h -> headers.add(new EgressRequest.Header(h.name(), h.value())));
        EgressRequest outgoing = new EgressRequest(
                request.method(),
                URI.create(request.url()),
                headers,
                body(request),
                request.contentType(),
                request.idempotent(),
                // Within the origin is not enough: the credential goes only where the tool's path may lead.
                terms.baseUrl());
        SecretRedactor redactor = SecretRedactor.of(secretValues);
        KeptBody kept = new KeptBody(tool.maxRetainedBytes(), redactor);
        EgressResult result = client.call(outgoing, kept, control, Duration.parse(tool.timeout()));
        KeptBody.Kept answer = kept.kept();
        StreamResult body = answer.body();
        StreamResult stdout = body == null ? StreamResult.empty() : body;
        boolean text = isText(answer.contentType(), stdout);
        if (!text) {
            stdout = new StreamResult(
                    stdout.observedBytes(),
                    stdout.retainedBytes(),
                    stdout.truncated(),
                    stdout.eof(),
                    stdout.sha256(),
                    "",
                    RemovalReport.EMPTY,
                    // Only the raw artifact holds the body: what was replaced is what was replaced there.
                    stdout.rawRedactions(),
                    stdout.raw(),
                    stdout.rawRedactions());
        }
        log.info(
                "HTTP call to upstream {}: {} {} -> {} {} ({} attempt(s))",
                terms.name(),
                request.method(),
                // Raw: decoded, a redirect's %0d%0a would start a forged line of the log.
                result.finalUrl().getRawPath(),
                result.termination(),
                result.status(),
                result.attempts());
        CallFacts facts = new CallFacts(
                terms.name(),
                request.method(),
                // As the audit event keeps it: ASCII only (a redirect chose it), the upstream's secrets redacted.
                StreamCapture.inert(result.finalUrl().toASCIIString(), redactor),
                result.status(),
                ResponseHeaders.shown(result.headers()),
                result.attempts(),
                result.reason() == null ? null : StreamCapture.inert(result.reason(), redactor),
                text);
        return new CaptureResult(
                result.startedAt(),
                result.endedAt(),
                null,
                Termination.valueOf(result.termination().name()),
                null,
                null,
                stdout,
                StreamResult.empty(),
                facts);
    }

    private static byte[] body(RenderedRequest request) {
        byte[] body = request.body();
        return body == null ? new byte[0] : body;
    }

    /** Whether a body is text: by its type when it names one, and by its bytes (no NUL, valid UTF-8). */
    static boolean isText(@Nullable String contentType, StreamResult body) {
        if (contentType != null) {
            String type = contentType.toLowerCase(Locale.ROOT).split(";", 2)[0].strip();
            boolean textual = type.startsWith("text/")
                    || type.endsWith("/json")
                    || type.endsWith("+json")
                    || type.endsWith("/xml")
                    || type.endsWith("+xml")
                    || type.equals("application/javascript")
                    || type.equals("application/x-www-form-urlencoded")
                    || type.equals("application/yaml")
                    || type.equals("application/x-ndjson");
            if (!textual) {
                return false;
            }
        }
        for (byte b : body.raw()) {
            if (b == 0) {
                return false;
            }
        }
        return body.removed().invalidUtf8() == 0;
    }

    private CaptureResult refused(RenderedRequest request, String reason) {
        log.warn("HTTP call to upstream {} refused before sending: {}", request.upstream(), reason);
        return CaptureResult.callRefused(
                clock.instant(),
                new CallFacts(request.upstream(), request.method(), request.url(), null, Map.of(), 0, reason, true));
    }
}
