package dev.airlock.gateway.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The acme tenant's webhook in the shared test context: an HTTP server on a loopback port in the
 * test JVM that refuses the first delivery of every notification (503), so that each is retried,
 * and keeps what it accepts per run, in the order accepted.
 */
public final class WebhookReceiver {

    private static WebhookReceiver shared;

    private final HttpServer server;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<String, List<String>> accepted = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final Map<String, List<Map<String, String>>> headers = new ConcurrentHashMap<>();

    /** The acme tenant's Standard Webhooks secret (src/test/resources/webhook/acme-secret.txt). */
    public static final String SECRET_FILE = "src/test/resources/webhook/acme-secret.txt";

    private WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hook", this::receive);
        server.start();
    }

    /** The receiver of this test JVM, started on first use. */
    public static synchronized WebhookReceiver shared() {
        if (shared == null) {
            try {
                shared = new WebhookReceiver();
            } catch (IOException e) {
                throw new IllegalStateException("could not start the webhook receiver", e);
            }
        }
        return shared;
    }

    /** Where the gateway posts. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    private void receive(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        JsonNode payload = json.readTree(body);
        String runId = payload.path("runId").asString();
        boolean first =
                attempts.computeIfAbsent(runId + " " + payload.path("event").asString(), k -> new AtomicInteger())
                                .incrementAndGet()
                        == 1;
        Map<String, String> received = new java.util.TreeMap<>();
        for (String name : List.of("webhook-id", "webhook-timestamp", "webhook-signature")) {
            String value = exchange.getRequestHeaders().getFirst(name);
            if (value != null) {
                received.put(name, value);
            }
        }
        received.put("body", body);
        List<Map<String, String>> seen = headers.computeIfAbsent(
                runId + " " + payload.path("event").asString(), k -> new java.util.concurrent.CopyOnWriteArrayList<>());
        seen.add(received);
        if (!first) {
            List<String> payloads = accepted.computeIfAbsent(runId, k -> new ArrayList<>());
            synchronized (payloads) {
                payloads.add(body);
            }
        }
        exchange.sendResponseHeaders(first ? 503 : 204, -1);
        exchange.close();
    }

    /**
     * The Standard Webhooks headers ({@code webhook-id}, {@code webhook-timestamp},
     * {@code webhook-signature}) and the body ({@code body}) of every attempt to deliver this event
     * about this run, refused or accepted, in order.
     */
    public List<Map<String, String>> deliveries(String runId, String event) {
        return List.copyOf(headers.getOrDefault(runId + " " + event, List.of()));
    }

    /** The payloads accepted about a run, in the order accepted. */
    public List<String> payloads(String runId) {
        List<String> payloads = accepted.getOrDefault(runId, List.of());
        synchronized (payloads) {
            return List.copyOf(payloads);
        }
    }

    /** How many times the gateway posted this event about this run, refused or accepted. */
    public int attempts(String runId, String event) {
        AtomicInteger count = attempts.get(runId + " " + event);
        return count == null ? 0 : count.get();
    }

    /**
     * Waits up to 20 seconds for the accepted payload of {@code event} about {@code runId}.
     *
     * @throws AssertionError when none arrives
     */
    public JsonNode await(String runId, String event) {
        return org.awaitility.Awaitility.await("the accepted " + event + " about run " + runId)
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () -> payloads(runId).stream()
                                .map(json::readTree)
                                .filter(node -> node.path("event").asString().equals(event))
                                .findFirst(),
                        java.util.Optional::isPresent)
                .orElseThrow();
    }

    /** Registers the receiver as the acme tenant's webhook, and a console address for the links. */
    public static final class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            context.getEnvironment()
                    .getPropertySources()
                    .addFirst(new MapPropertySource(
                            "webhook-receiver",
                            Map.of(
                                    "airlock.tenants.acme.notifications.webhooks[0]",
                                    shared().url(),
                                    "airlock.tenants.acme.notifications.allow-private-network",
                                    "true",
                                    "airlock.tenants.acme.notifications.webhook-secret",
                                    "file:" + java.nio.file.Path.of(SECRET_FILE).toAbsolutePath(),
                                    "airlock.console.base-url",
                                    "https://airlock.example.test/")));
        }
    }
}
