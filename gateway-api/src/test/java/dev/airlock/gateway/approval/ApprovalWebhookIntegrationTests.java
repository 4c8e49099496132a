package dev.airlock.gateway.approval;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tenant's webhook hears of each new pending approval, each final decision and the end of
 * each approved run, and a receiver that fails at first is retried; no payload carries output,
 * not even those sent after the run printed it.
 */
@AirlockIntegrationTest
class ApprovalWebhookIntegrationTests {

    private static final BlockingQueue<String> RECEIVED = new LinkedBlockingQueue<>();
    private static final AtomicInteger ATTEMPTS = new AtomicInteger();
    private static final HttpServer RECEIVER = receiver();

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvcTester mvc;

    @TempDir
    static Path files;

    private static HttpServer receiver() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/hook", exchange -> {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                boolean fail = ATTEMPTS.incrementAndGet() == 1;
                if (!fail) {
                    RECEIVED.add(body);
                }
                exchange.sendResponseHeaders(fail ? 503 : 204, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void webhook(DynamicPropertyRegistry registry) {
        registry.add("airlock.tenants.acme.notifications.webhooks[0]",
                () -> "http://127.0.0.1:" + RECEIVER.getAddress().getPort() + "/hook");
        registry.add("airlock.console.base-url", () -> "https://airlock.example.test/");
    }

    @AfterAll
    static void stop() {
        RECEIVER.stop(0);
    }

    @Test
    void announcesTheRequestTheDecisionAndTheEndRetryingAFailingReceiverAndNeverSendsOutput() throws Exception {
        AgentApi api = new AgentApi(mvc);
        // The marker is in what the run prints, not in its arguments (a file name).
        String unique = UUID.randomUUID().toString();
        String marker = "OUTPUT-MARKER-" + unique;
        Path printed = files.resolve("printed.txt");
        Files.writeString(printed, marker + "\n");
        String runId = api.post(ACME, "/api/v1/runs", "{\"tool\":\"hostile-release\",\"arguments\":{\"file\":\"" + printed + "\"}}")
                .text("runId");
        List<String> payloads = new ArrayList<>();
        JsonNode requested = next(payloads);
        assertThat(requested.path("event").asString()).isEqualTo("approval.requested");
        assertThat(requested.path("runId").asString()).isEqualTo(runId);
        assertThat(requested.path("tool").asString()).isEqualTo("hostile-release");
        assertThat(requested.path("console").asString()).isEqualTo("https://airlock.example.test/console/runs/" + runId);
        assertThat(ATTEMPTS.get()).isGreaterThanOrEqualTo(2);

        String digest = requested.path("digest").asString();
        assertThat(api.asHuman("alice", "POST", "/api/v1/approvals/" + runId + "/decisions",
                "{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}").status()).isEqualTo(200);
        // The decision and the run's end are announced from different threads, in either order.
        Map<String, JsonNode> events = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            JsonNode event = next(payloads);
            events.put(event.path("event").asString(), event);
        }
        assertThat(events).containsOnlyKeys("approval.decided", "run.finished");
        JsonNode decided = events.get("approval.decided");
        assertThat(decided.path("runId").asString()).isEqualTo(runId);
        assertThat(decided.path("status").asString()).isEqualTo("APPROVED");

        JsonNode run = api.get(ACME, "/api/v1/runs/" + runId + "?wait=PT20S").body();
        assertThat(run.path("stdout").path("text").asString()).as("the output carries the marker").isEqualTo(marker + "\n");
        JsonNode finished = events.get("run.finished");
        assertThat(finished.path("runId").asString()).isEqualTo(runId);
        assertThat(finished.path("digest").asString()).isEqualTo(digest);
        assertThat(finished.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(finished.path("exitCode").asInt()).isZero();
        assertThat(finished.path("termination").asString()).isEqualTo("EXITED");

        // A request and a decision announced after the output exists carry none of it either.
        String denied = api.post(ACME, "/api/v1/runs", "{\"tool\":\"release\",\"arguments\":{\"note\":\"later\"}}")
                .text("runId");
        assertThat(next(payloads).path("event").asString()).isEqualTo("approval.requested");
        String deniedDigest = api.asHuman("bob", false, "GET", "/api/v1/approvals/" + denied, null).body().path("summary")
                .path("digest").asString();
        assertThat(api.asHuman("bob", "POST", "/api/v1/approvals/" + denied + "/decisions",
                "{\"decision\":\"DENY\",\"reason\":\"not now\",\"digest\":\"" + deniedDigest + "\"}").status()).isEqualTo(200);
        JsonNode deniedEvent = next(payloads);
        assertThat(deniedEvent.path("event").asString()).isEqualTo("approval.decided");
        assertThat(deniedEvent.path("status").asString()).isEqualTo("DENIED");

        assertThat(payloads).hasSize(5).noneMatch(p -> p.contains("OUTPUT-MARKER") || p.contains(unique));
        Thread.sleep(300);
        assertThat(RECEIVED).as("nothing else was sent").isEmpty();
    }

    /** The next payload the receiver accepted, kept in {@code payloads} as received. */
    private static JsonNode next(List<String> payloads) throws InterruptedException {
        String payload = RECEIVED.poll(20, TimeUnit.SECONDS);
        assertThat(payload).as("a webhook call within 20 s").isNotNull();
        payloads.add(payload);
        return JSON.readTree(payload);
    }
}
