package dev.airlock.approval.notify;

import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.egress.CallControl;
import dev.airlock.egress.Egress;
import dev.airlock.egress.EgressRequest;
import dev.airlock.egress.EgressResult;
import dev.airlock.egress.EgressTermination;
import dev.airlock.egress.Upstream;
import dev.airlock.egress.UpstreamPolicy;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.persistence.event.ApprovalClosed;
import dev.airlock.persistence.event.ApprovalOpened;
import dev.airlock.persistence.event.ApprovedRunFinished;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;
import tools.jackson.databind.json.JsonMapper;

/**
 * Announces each new pending approval, each final outcome and the end of each approved run to the
 * tenant's webhooks, after the transaction commits, on virtual threads, with retries and
 * exponential backoff: a slow or failing receiver never delays a decision. The payload names the
 * run, tool, digest and a console link, and how an approved run ended; it never carries output.
 */
@Component
public class ApprovalWebhooks implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ApprovalWebhooks.class);

    private final AirlockProperties properties;
    private final PeopleSettings people;
    private final JsonMapper json;
    private final Clock clock;
    private final Egress egress;
    private final ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, WebhookSignature> signatures = new LinkedHashMap<>();
    private final Retry retry = Retry.of(
            "approval-webhooks",
            RetryConfig.custom()
                    .maxAttempts(5)
                    .intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofMillis(200), 2.0))
                    .retryExceptions(IOException.class, WebhookRefused.class)
                    .build());

    ApprovalWebhooks(AirlockProperties properties, PeopleSettings people, JsonMapper json, Clock clock, Egress egress) {
        java.util.function.Function<String, java.util.Optional<String>> environment =
                name -> java.util.Optional.ofNullable(System.getenv(name));
        people.tenants().forEach((tenant, settings) -> {
            String secret = settings.notifications().webhookSecret();
            String key = "airlock.tenants." + tenant + ".notifications.webhook-secret";
            if (secret != null) {
                signatures.put(
                        tenant,
                        WebhookSignature.of(
                                dev.airlock.approval.settings.SecretText.read(secret, key, environment), key));
            } else if (!settings.notifications().webhooks().isEmpty()) {
                log.warn("Tenant {}: webhook deliveries are not signed; set {} (docs/approvals.md)", tenant, key);
            }
        });
        this.egress = egress;
        this.properties = properties;
        this.people = people;
        this.json = json;
        this.clock = clock;
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
    void opened(ApprovalOpened opened) {
        Map<String, Object> payload = payload(
                "approval.requested", opened.runId().toString(), opened.tenant(), opened.tool(), opened.digest());
        payload.put("agent", opened.agent());
        payload.put("expiresAt", opened.expiresAt().toString());
        send(opened.tenant(), payload);
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
    void closed(ApprovalClosed closed) {
        Map<String, Object> payload =
                payload("approval.decided", closed.runId().toString(), closed.tenant(), closed.tool(), closed.digest());
        payload.put("status", closed.status().name());
        send(closed.tenant(), payload);
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
    void finished(ApprovedRunFinished finished) {
        if (hooks(finished.tenant()).isEmpty()) {
            return;
        }
        Map<String, Object> payload = payload(
                "run.finished", finished.runId().toString(), finished.tenant(), finished.tool(), finished.digest());
        payload.put("state", finished.state().name());
        payload.put("exitCode", finished.exitCode());
        payload.put(
                "termination",
                finished.termination() == null ? null : finished.termination().name());
        send(finished.tenant(), payload);
    }

    /**
     * Posts {@code payload} (with {@code event} set) to the tenant's webhooks, as approval events are
     * sent: asynchronously, retried, never delaying the caller. For announcements that are not about
     * one approval, such as chain anchors (docs/evidence.md).
     */
    public void announce(String tenant, String event, Map<String, Object> payload) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("event", event);
        body.putAll(payload);
        body.put("sentAt", Instant.now(clock).toString());
        send(tenant, body);
    }

    private Map<String, Object> payload(
            String event, String runId, String tenant, String tool, @Nullable String digest) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("event", event);
        payload.put("runId", runId);
        payload.put("tenant", tenant);
        payload.put("tool", tool);
        payload.put("digest", digest);
        payload.put("console", properties.console().baseUrl().replaceAll("/+$", "") + "/console/runs/" + runId);
        payload.put("sentAt", Instant.now(clock).toString());
        return payload;
    }

    private List<URI> hooks(String tenant) {
        return people.tenant(tenant).notifications().webhooks();
    }

    private void send(String tenant, Map<String, Object> payload) {
        List<URI> hooks = hooks(tenant);
        if (hooks.isEmpty()) {
            return;
        }
        String body = json.writeValueAsString(payload);
        // One id per delivery, kept across its retries, so that a receiver can drop a repeat.
        String id = "msg_" + java.util.UUID.randomUUID();
        WebhookSignature signature = signatures.get(tenant);
        boolean allowPrivate = people.tenant(tenant).notifications().allowPrivateNetwork();
        for (int i = 0; i < hooks.size(); i++) {
            URI hook = hooks.get(i);
            int hookIndex = i;
            Upstream receiver = egress.upstream("webhook." + tenant + "." + i, receiverPolicy(allowPrivate));
            senders.execute(() -> {
                try {
                    Retry.decorateCheckedRunnable(retry, () -> post(receiver, hook, id, signature, body))
                            .run();
                } catch (Throwable e) {
                    log.warn(
                            "Webhook {} of tenant {} (host {}) did not take {} for run {}: {}",
                            hookIndex,
                            tenant,
                            hook.getHost(),
                            payload.get("event"),
                            payload.get("runId"),
                            e.getMessage());
                }
            });
        }
    }

    /**
     * How a receiver is reached: through the guarded client, a short timeout, its own breaker (a
     * dead receiver, 90 % of the last 20 deliveries failing, is given up on for 30 s and costs no
     * approval anything; a flaky one that accepts a retry stays in use), no retry of its own (the
     * delivery's retry above decides).
     */
    static UpstreamPolicy receiverPolicy(boolean allowPrivateNetwork) {
        return new UpstreamPolicy(
                allowPrivateNetwork,
                null,
                Duration.ofSeconds(5),
                64 * 1024,
                new UpstreamPolicy.Breaker(90, Duration.ofSeconds(5), 100, 10, 20, Duration.ofSeconds(30)),
                new UpstreamPolicy.RetryPolicy(1, Duration.ofMillis(100)),
                4);
    }

    private void post(Upstream receiver, URI hook, String id, @Nullable WebhookSignature signature, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        long timestamp = clock.instant().getEpochSecond();
        List<EgressRequest.Header> headers = new java.util.ArrayList<>();
        if (signature != null) {
            signature.headers(id, timestamp, bytes).forEach((n, v) -> headers.add(new EgressRequest.Header(n, v)));
        } else {
            headers.add(new EgressRequest.Header("webhook-id", id));
            headers.add(new EgressRequest.Header("webhook-timestamp", Long.toString(timestamp)));
        }
        EgressResult result = receiver.call(
                new EgressRequest("POST", hook, headers, bytes, "application/json", false),
                (status, type, in) -> in.transferTo(OutputStream.nullOutputStream()),
                CallControl.NONE,
                Duration.ofSeconds(10));
        if (result.termination() == EgressTermination.REFUSED) {
            throw new DeliveryRefused((result.status() == null ? "" : "HTTP " + result.status() + ": ")
                    + "refused by the client (" + result.reason() + ")");
        }
        if (result.termination() != EgressTermination.RESPONDED
                || result.status() == null
                || result.status() / 100 != 2) {
            throw new WebhookRefused(
                    result.status() == null
                            ? result.termination().name()
                            : "HTTP " + result.status()
                                    + (result.reason() == null ? "" : " (" + result.reason() + ")"));
        }
    }

    @Override
    public void destroy() {
        senders.shutdown();
    }

    /** The receiver answered with something other than 2xx. */
    static final class WebhookRefused extends RuntimeException {

        private static final long serialVersionUID = 1L;

        WebhookRefused(String what) {
            super(what, null, false, false);
        }
    }
}
