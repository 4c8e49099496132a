package dev.airlock.gateway.approval;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tenant's webhook hears of each new pending approval and each final decision, and a
 * receiver that fails at first is retried; the payload never carries output.
 */
@AirlockIntegrationTest
class ApprovalWebhookIntegrationTests {

    private static final BlockingQueue<String> RECEIVED = new LinkedBlockingQueue<>();
    private static final AtomicInteger ATTEMPTS = new AtomicInteger();
    private static final HttpServer RECEIVER = receiver();

    @Autowired
    MockMvcTester mvc;

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
    void announcesTheRequestAndTheDecisionRetryingAFailingReceiver() throws Exception {
        AgentApi api = new AgentApi(mvc);
        String runId = api.post(ACME, "/api/v1/runs", "{\"tool\":\"release\",\"arguments\":{\"note\":\"SECRET-OUTPUT-NOT-SENT\"}}")
                .text("runId");
        JsonMapper json = JsonMapper.builder().build();
        JsonNode requested = json.readTree(RECEIVED.poll(20, TimeUnit.SECONDS));
        assertThat(requested.path("event").asString()).isEqualTo("approval.requested");
        assertThat(requested.path("runId").asString()).isEqualTo(runId);
        assertThat(requested.path("tool").asString()).isEqualTo("release");
        assertThat(requested.path("console").asString()).isEqualTo("https://airlock.example.test/console/runs/" + runId);
        assertThat(ATTEMPTS.get()).isGreaterThanOrEqualTo(2);

        String digest = requested.path("digest").asString();
        api.asHuman("alice", "POST", "/api/v1/approvals/" + runId + "/decisions",
                "{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}");
        JsonNode decided = json.readTree(RECEIVED.poll(20, TimeUnit.SECONDS));
        assertThat(decided.path("event").asString()).isEqualTo("approval.decided");
        assertThat(decided.path("status").asString()).isEqualTo("APPROVED");
        assertThat(List.of(requested.toString(), decided.toString())).noneMatch(p -> p.contains("SECRET-OUTPUT-NOT-SENT"));
    }
}
