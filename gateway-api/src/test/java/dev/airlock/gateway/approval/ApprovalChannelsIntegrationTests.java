package dev.airlock.gateway.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.MovableClock;
import dev.airlock.gateway.support.TestDatabaseConfiguration;
import dev.airlock.gateway.support.TestSecrets;
import dev.airlock.persistence.notification.NotificationDeliveries;
import dev.airlock.persistence.scope.Scopes;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Approval requests brought to people where they are: Slack and Teams receivers started here (real
 * HTTP servers on 127.0.0.1, asserting the payloads), a local SMTP server (GreenMail) for e-mail, a
 * dead channel, routing by approver group, a reminder and an escalation driven by a movable clock,
 * and a follow-up when the request is decided; an argument full of mentions, markup and escape
 * sequences stays inert in every channel.
 */
@SpringBootTest
@AutoConfigureMockMvc
@ActiveProfiles("test")
@Import({TestDatabaseConfiguration.class, TestSecrets.class, MovableClock.Configuration.class})
class ApprovalChannelsIntegrationTests {

    static final String KEY = "alerts-bot-key";
    static final String HOSTILE =
            "<!channel> <@U123> @here *bold* _it_ [click](http://evil.example) <b>x</b> &amp; `code` # heading";

    static final Map<String, List<String>> RECEIVED = new ConcurrentHashMap<>();
    static final HttpServer CHAT = chat();
    static final GreenMail SMTP = smtp();
    /** The channels' URLs are secrets: outside every tool's mounts (a mount over them stops the start). */
    static final Path SECRETS = secrets();

    private static Path secrets() {
        try {
            return Files.createDirectories(
                    Path.of(System.getProperty("user.dir"), "target", "test-secrets", "channel-urls")
                            .toAbsolutePath());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Autowired
    MockMvcTester mvc;

    @Autowired
    MovableClock clock;

    @Autowired
    NotificationDeliveries deliveries;

    @Autowired
    Scopes scopes;

    private final JsonMapper json = JsonMapper.builder().build();

    private static HttpServer chat() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            for (String path : List.of("/slack", "/teams")) {
                server.createContext(path, exchange -> {
                    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    RECEIVED.computeIfAbsent(path, p -> new CopyOnWriteArrayList<>())
                            .add(body);
                    exchange.sendResponseHeaders(200, -1);
                    exchange.close();
                });
            }
            // Receivers (a channel, a webhook) that take the POST and answer "see other": followed, it would turn
            // into a GET.
            for (String path : List.of("/moved", "/hook-moved")) {
                server.createContext(path, exchange -> {
                    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    RECEIVED.computeIfAbsent(path, p -> new CopyOnWriteArrayList<>())
                            .add(body);
                    exchange.getResponseHeaders().set("Location", "/slack");
                    exchange.sendResponseHeaders(303, -1);
                    exchange.close();
                });
            }
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static GreenMail smtp() {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        GreenMail mail = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        mail.start();
        return mail;
    }

    @AfterAll
    static void stop() {
        CHAT.stop(0);
        SMTP.stop();
    }

    /** The webhook URLs hold credentials, so they are configured by where they are: files here. */
    @DynamicPropertySource
    static void channels(DynamicPropertyRegistry registry) throws IOException {
        String base = "http://127.0.0.1:" + CHAT.getAddress().getPort();
        int dead;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            dead = socket.getLocalPort();
        }
        Files.writeString(SECRETS.resolve("slack"), base + "/slack\n");
        Files.writeString(SECRETS.resolve("teams"), base + "/teams\n");
        Files.writeString(SECRETS.resolve("dead"), "http://127.0.0.1:" + dead + "/gone\n");
        Files.writeString(SECRETS.resolve("moved"), base + "/moved\n");
        String n = "airlock.tenants.alerts.notifications.";
        registry.add(n + "allow-private-network", () -> "true");
        registry.add(n + "channels.ops-slack.type", () -> "slack");
        registry.add(n + "channels.ops-slack.url", () -> "file:" + SECRETS.resolve("slack"));
        registry.add(n + "channels.leads-teams.type", () -> "teams");
        registry.add(n + "channels.leads-teams.url", () -> "file:" + SECRETS.resolve("teams"));
        registry.add(n + "channels.ops-mail.type", () -> "email");
        registry.add(n + "channels.ops-mail.to[0]", () -> "ops@example.test");
        registry.add(n + "channels.dead.type", () -> "slack");
        registry.add(n + "channels.dead.url", () -> "file:" + SECRETS.resolve("dead"));
        registry.add(n + "approver-groups.ops.channels[0]", () -> "ops-slack");
        registry.add(n + "approver-groups.ops.channels[1]", () -> "ops-mail");
        registry.add(n + "approver-groups.ops.channels[2]", () -> "dead");
        registry.add(n + "channels.moved.type", () -> "slack");
        registry.add(n + "channels.moved.url", () -> "file:" + SECRETS.resolve("moved"));
        registry.add(n + "approver-groups.ops.channels[3]", () -> "moved");
        registry.add(n + "webhooks[0]", () -> base + "/hook-moved");
        registry.add(n + "approver-groups.ops.tools[0]", () -> "deploy");
        registry.add(n + "approver-groups.leads.channels[0]", () -> "leads-teams");
        registry.add(n + "approver-groups.leads.tools[0]", () -> "nothing-*");
        registry.add(n + "remind-before", () -> "PT10M");
        registry.add(n + "escalate-after", () -> "PT30M");
        registry.add(n + "escalate-to", () -> "leads");
        registry.add("airlock.console.base-url", () -> "https://airlock.example.test/");
        registry.add("spring.mail.host", () -> "127.0.0.1");
        registry.add("spring.mail.port", () -> Integer.toString(SMTP.getSmtp().getPort()));
    }

    private List<JsonNode> received(String path, String runId) {
        return RECEIVED.getOrDefault(path, List.of()).stream()
                .filter(body -> body.contains(runId))
                .map(json::readTree)
                .toList();
    }

    private List<NotificationDeliveries.Delivery> deliveries(String runId) {
        return scopes.consoleJobs().call(() -> deliveries.of(UUID.fromString(runId)));
    }

    /** The run's one delivery through {@code channel}, once it is recorded FAILED after {@code attempts} attempts. */
    private NotificationDeliveries.Delivery awaitFailedDelivery(String runId, String channel, int attempts) {
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(deliveries(runId))
                        .filteredOn(d -> d.channel().equals(channel))
                        .singleElement()
                        .satisfies(d -> {
                            assertThat(d.status()).isEqualTo(NotificationDeliveries.Status.FAILED);
                            assertThat(d.attempts()).isEqualTo(attempts);
                        }));
        return deliveries(runId).stream()
                .filter(d -> d.channel().equals(channel))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aRequestReachesItsGroupsChannelsInertIsRemindedEscalatedAndFollowedUp() throws Exception {
        AgentApi api = new AgentApi(mvc);
        String runId = api.park(KEY, "deploy", "{\"target\":" + json.writeValueAsString(HOSTILE) + "}");

        // Slack: Airlock's words in the fallback text, the argument only as escaped plain text.
        JsonNode slack = await().atMost(Duration.ofSeconds(20))
                .until(() -> received("/slack", runId), l -> !l.isEmpty())
                .getFirst();
        assertThat(slack.path("text").asString()).isEqualTo("deploy in alerts waits for approval");
        String slackText = slack.toString();
        assertThat(slackText)
                .contains("&lt;!channel&gt; &lt;@U123&gt;")
                .contains("&lt;b&gt;x&lt;/b&gt;")
                .doesNotContain("<!channel>")
                .doesNotContain("<@U123>")
                .as("links are defanged")
                .contains("http[:]//evil[.]example")
                .doesNotContain("http://evil.example")
                .contains("&amp;amp;");
        slack.path("blocks")
                .forEach(block -> block.findValues("type").stream()
                        .map(JsonNode::asString)
                        .forEach(type -> assertThat(type).isNotEqualTo("mrkdwn")));
        assertThat(slack.path("blocks").findValues("url").stream()
                        .map(JsonNode::asString)
                        .toList())
                .containsExactly("https://airlock.example.test/console/runs/" + runId);

        // E-mail: a text part and an HTML part with the markup escaped.
        await().atMost(Duration.ofSeconds(20)).until(() -> SMTP.getReceivedMessages().length > 0);
        MimeMessage mail = java.util.Arrays.stream(SMTP.getReceivedMessages())
                .filter(m -> GreenMailUtil.getWholeMessage(m).contains(runId))
                .findFirst()
                .orElseThrow();
        assertThat(mail.getSubject()).isEqualTo("[Airlock] deploy in alerts waits for approval");
        String whole = GreenMailUtil.getWholeMessage(mail);
        String html = whole.substring(whole.indexOf("Content-Type: text/html"));
        assertThat(html)
                .as("the HTML part escapes every markup character")
                .contains("&lt;b&gt;x&lt;/b&gt;")
                .contains("&lt;!channel&gt;")
                .doesNotContain("<b>x</b>")
                .doesNotContain("http://evil.example");
        assertThat(whole.substring(0, whole.indexOf("Content-Type: text/html")))
                .as("the text part is the words themselves")
                .contains("Content-Type: text/plain")
                .contains("<b>x</b>");

        // Teams is the leads' channel: not told of deploy's requests, until the escalation.
        assertThat(received("/teams", runId)).isEmpty();

        // The dead channel: bounded attempts, recorded; the others recorded as sent.
        awaitFailedDelivery(runId, "dead", 5);
        // A redirect the client does not follow: refused once, not sent again.
        assertThat(awaitFailedDelivery(runId, "moved", 1).lastError()).contains("REFUSED (HTTP 303)");
        assertThat(received("/moved", runId)).as("the POST arrived once").hasSize(1);
        // The tenant's webhook, likewise: one POST of the request, never sent again.
        await().during(Duration.ofSeconds(4))
                .atMost(Duration.ofSeconds(20))
                .until(
                        () -> received("/hook-moved", runId).stream()
                                .filter(p -> p.path("event").asString().equals("approval.requested"))
                                .count(),
                        count -> count == 1);
        assertThat(deliveries(runId))
                .filteredOn(d -> !d.channel().equals("dead") && !d.channel().equals("moved"))
                .extracting(NotificationDeliveries.Delivery::status)
                .containsOnly(NotificationDeliveries.Status.SENT);

        // 51 minutes later: reminded (10 minutes before expiry) and escalated (after 30 minutes), once each.
        clock.advance(Duration.ofMinutes(51));
        try {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> received("/slack", runId).stream()
                            .anyMatch(m -> m.path("text").asString().startsWith("Reminder: deploy")));
            JsonNode teams = await().atMost(Duration.ofSeconds(20))
                    .until(() -> received("/teams", runId), l -> !l.isEmpty())
                    .getFirst();
            assertThat(teams.path("type").asString()).isEqualTo("message");
            JsonNode card = teams.path("attachments").get(0);
            assertThat(card.path("contentType").asString()).isEqualTo("application/vnd.microsoft.card.adaptive");
            assertThat(card.path("content").findValues("type").stream()
                            .map(JsonNode::asString)
                            .toList())
                    .as("untrusted text only in TextRuns, which Teams never reads as markdown")
                    .doesNotContain("TextBlock")
                    .contains("RichTextBlock", "TextRun", "Action.OpenUrl");
            assertThat(card.toString()).contains("Escalated: deploy in alerts waits for approval");
            Thread.sleep(1000);
            assertThat(received("/slack", runId))
                    .as("one request, one reminder")
                    .hasSize(2);

            // Decided: a follow-up where the request went.
            String digest = api.digest("nora", runId);
            assertThat(api.asHuman(
                                    "nora",
                                    "POST",
                                    "/api/v1/approvals/" + runId + "/decisions",
                                    "{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}")
                            .status())
                    .isEqualTo(200);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> received("/slack", runId).stream()
                            .anyMatch(m -> m.path("text").asString().equals("deploy in alerts: approved")));
        } finally {
            clock.reset();
        }
    }

    @Test
    void aToolOrItsDecidingRuleNamesTheGroupToTell() {
        AgentApi api = new AgentApi(mvc);
        String ordinary = api.park(KEY, "rotate", "{\"key\":\"db\"}");
        String root = api.park(KEY, "rotate", "{\"key\":\"root\"}");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(received("/slack", ordinary))
                        .as("rotate names the ops group, though ops' tools do not match it")
                        .isNotEmpty());
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(received("/teams", root))
                        .as("the rule for the root key names the leads")
                        .isNotEmpty());
        assertThat(received("/teams", ordinary)).isEmpty();
        assertThat(received("/slack", root)).isEmpty();
    }

    /** A reminder to leads-teams claimed ten minutes ago and never sent, as a replica that stopped would leave it. */
    private void reminderClaimedByAStoppedReplica(String runId) {
        java.time.Instant longAgo = clock.instant().minus(Duration.ofMinutes(10));
        scopes.consoleJobs()
                .run(() -> deliveries.claim(
                        "alerts", UUID.fromString(runId), "leads-teams", "approval.reminder", longAgo));
    }

    @Test
    void aMessageWhoseSenderStoppedIsSentAgain() {
        AgentApi api = new AgentApi(mvc);
        String runId = api.park(KEY, "deploy", "{\"target\":\"lost\"}");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !received("/slack", runId).isEmpty());
        reminderClaimedByAStoppedReplica(runId);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(received("/teams", runId))
                    .anyMatch(m -> m.toString().contains("Reminder: deploy in alerts still waits for approval"));
            assertThat(deliveries(runId))
                    .filteredOn(d -> d.channel().equals("leads-teams"))
                    .singleElement()
                    .satisfies(d -> assertThat(d.status()).isEqualTo(NotificationDeliveries.Status.SENT));
        });
    }

    @Test
    void aCancelledRequestIsFollowedUpAndNeverAnnouncedAgainAsWaiting() {
        AgentApi api = new AgentApi(mvc);
        String runId = api.park(KEY, "deploy", "{\"target\":\"called-off\"}");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !received("/slack", runId).isEmpty());
        assertThat(api.post(KEY, "/api/v1/runs/" + runId + "/cancel", "").status())
                .isIn(200, 202);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> received("/slack", runId).stream()
                        .anyMatch(m -> m.path("text").asString().equals("deploy in alerts: cancelled")));

        // A reminder a stopped replica had claimed is not sent once the request is closed.
        reminderClaimedByAStoppedReplica(runId);
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(deliveries(runId))
                        .filteredOn(d -> d.channel().equals("leads-teams"))
                        .singleElement()
                        .satisfies(d -> {
                            assertThat(d.status()).isEqualTo(NotificationDeliveries.Status.FAILED);
                            assertThat(d.lastError()).isEqualTo("not sent again: the request is CANCELLED by now");
                        }));
        assertThat(received("/teams", runId)).isEmpty();
    }
}
