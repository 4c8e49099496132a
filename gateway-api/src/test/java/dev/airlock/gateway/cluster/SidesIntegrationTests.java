package dev.airlock.gateway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.approval.request.ApprovalService;
import dev.airlock.gateway.AirlockApplication;
import dev.airlock.gateway.support.Decisions;
import dev.airlock.persistence.approval.Verdict;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two sides, one jar: a replica with {@code airlock.roles=agent-api} serves none of the people's
 * paths, one with {@code console} none of the agents', and each runs only its own jobs; a run
 * approved on the console side executes on the agent side.
 */
class SidesIntegrationTests {

    @TempDir
    static Path work;

    private static ConfigurableApplicationContext agentSide;
    private static ConfigurableApplicationContext consoleSide;
    private final HttpClient http =
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @BeforeAll
    static void start() {
        agentSide = new SpringApplicationBuilder(AirlockApplication.class)
                .profiles("test")
                .run(
                        "--airlock.data-dir=" + work.resolve("agent"),
                        "--server.port=0",
                        "--airlock.node-id=agent-side",
                        "--airlock.roles=agent-api");
        String url = "jdbc:postgresql://localhost:"
                + agentSide.getBean(EmbeddedPostgres.class).getPort() + "/postgres";
        consoleSide = new SpringApplicationBuilder(AirlockApplication.class)
                .profiles("test")
                .run(
                        "--airlock.data-dir=" + work.resolve("console"),
                        "--server.port=0",
                        "--airlock.node-id=console-side",
                        "--airlock.roles=console",
                        "--spring.datasource.url=" + url,
                        "--spring.datasource.username=airlock_app",
                        "--spring.flyway.enabled=false",
                        "--spring.datasource.password="
                                + agentSide
                                        .getBean(
                                                org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails.class)
                                        .getPassword());
    }

    @AfterAll
    static void stop() {
        if (consoleSide != null) {
            consoleSide.close();
        }
        if (agentSide != null) {
            agentSide.close();
        }
    }

    private static int port(ConfigurableApplicationContext context) {
        return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
    }

    private HttpResponse<String> send(
            ConfigurableApplicationContext side, String method, String path, String key, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(side) + path));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theAgentSideServesNoneOfThePeoplesPaths() throws Exception {
        assertThat(send(agentSide, "GET", "/api/v1/tools", "acme-build-bot-key", null)
                        .statusCode())
                .isEqualTo(200);
        for (String path : new String[] {
            "/console",
            "/login",
            "/console/tokens",
            "/api/v1/approvals",
            "/api/v1/audit/runs?tenant=acme",
            "/api/v1/audit/raw-grants",
            "/"
        }) {
            assertThat(send(agentSide, "GET", path, null, null).statusCode())
                    .as(path)
                    .isEqualTo(404);
        }
        assertThat(send(agentSide, "POST", "/login", null, "").statusCode()).isEqualTo(404);
        assertThat(agentSide.containsBean("approvalExpiry")).isFalse();
        assertThat(agentSide.containsBean("retentionJob")).isFalse();
        assertThat(agentSide.containsBean("runLeases")).isTrue();
    }

    @Test
    void theConsoleSideServesNoneOfTheAgentsPaths() throws Exception {
        assertThat(send(consoleSide, "GET", "/login", null, null).statusCode()).isEqualTo(200);
        assertThat(send(consoleSide, "GET", "/api/v1/tools", "acme-build-bot-key", null)
                        .statusCode())
                .isEqualTo(404);
        assertThat(send(
                                consoleSide,
                                "POST",
                                "/api/v1/runs",
                                "acme-build-bot-key",
                                "{\"tool\":\"echo\",\"arguments\":{\"message\":\"x\"}}")
                        .statusCode())
                .isEqualTo(404);
        assertThat(send(consoleSide, "GET", "/api/v1/runs/" + UUID.randomUUID(), "acme-build-bot-key", null)
                        .statusCode())
                .isEqualTo(404);
        assertThat(consoleSide.containsBean("runLeases")).isFalse();
        assertThat(consoleSide.containsBean("approvalExpiry")).isTrue();
    }

    @Test
    void aRunApprovedOnTheConsoleSideExecutesOnTheAgentSide() throws Exception {
        HttpResponse<String> parked = send(
                agentSide,
                "POST",
                "/api/v1/runs",
                "acme-build-bot-key",
                "{\"tool\":\"release\",\"arguments\":{\"note\":\"split sides\"}}");
        assertThat(parked.statusCode()).as(parked.body()).isEqualTo(201);
        Matcher m = Pattern.compile("\"runId\":\"([0-9a-f-]+)\"").matcher(parked.body());
        assertThat(m.find()).isTrue();
        UUID runId = UUID.fromString(m.group(1));
        ApprovalService approvals = consoleSide.getBean(ApprovalService.class);
        Decisions.decide(approvals, "alice", "acme", runId, Verdict.APPROVE, null);

        HttpResponse<String> done =
                send(agentSide, "GET", "/api/v1/runs/" + runId + "?wait=PT20S", "acme-build-bot-key", null);
        assertThat(done.body()).contains("\"state\":\"COMPLETED\"").contains("split sides");
        assertThat(dev.airlock.gateway.support.OwnerDatabase.jdbc(agentSide)
                        .sql("SELECT claimed_by FROM airlock.runs WHERE id = ?")
                        .param(runId)
                        .query(String.class)
                        .single())
                .isEqualTo("agent-side");
    }
}
