package dev.airlock.gateway.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.MovableClock;
import dev.airlock.gateway.support.TestDatabaseConfiguration;
import dev.airlock.gateway.support.TestSecrets;
import dev.airlock.sanitizer.Fence;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official TypeScript SDK client ({@code @modelcontextprotocol/sdk}, pinned in
 * {@code src/test/mcp-client/package.json}) against the gateway: a second client, written by
 * other people, that lists the tools, calls one (checking the envelope against the output
 * schema as it does), gets a tool error for bad arguments, receives progress while a call waits
 * for a human, and cancels a call in flight. It needs Node 20 or newer and {@code npm ci} in
 * that directory ({@code .ci/run} does both); without them the test is skipped, except in CI.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@Import({TestDatabaseConfiguration.class, TestSecrets.class, MovableClock.Configuration.class})
class TypeScriptClientIntegrationTests {

    private static final Path CLIENT = Path.of("src/test/mcp-client");
    private static final String SDK_VERSION = "1.32.2";

    @LocalServerPort
    int port;

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase jdbc;

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void theOfficialTypeScriptClientListsCallsWaitsForApprovalAndCancels() throws Exception {
        String node = requireNodeAndSdk();
        int slowRunsBefore = slowRuns();

        Process process = new ProcessBuilder(node, "client.mjs", "http://127.0.0.1:" + port + "/mcp", AgentApi.ACME)
                .directory(CLIENT.toFile())
                .start();
        boolean ended = process.waitFor(120, TimeUnit.SECONDS);
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!ended) {
            process.destroyForcibly();
        }
        assertThat(ended).as("the script ends; stderr: %s", stderr).isTrue();
        assertThat(process.exitValue()).as("exit status; stderr: %s", stderr).isZero();

        Map<String, JsonNode> steps = new HashMap<>();
        stdout.lines()
                .map(json::readTree)
                .forEach(step -> steps.put(step.path("step").asString(), step));

        assertThat(steps.get("initialize").path("protocolVersion").asString()).isEqualTo("2025-11-25");
        assertThat(steps.get("initialize").path("server").path("name").asString())
                .isEqualTo("airlock");

        JsonNode tools = steps.get("tools").path("tools");
        assertThat(tools.valueStream().map(t -> t.path("name").asString()).toList())
                .contains("echo", "deploy", "airlock_status", "airlock_output", "airlock_cancel");
        JsonNode echoTool = tools.valueStream()
                .filter(t -> t.path("name").asString().equals("echo"))
                .findFirst()
                .orElseThrow();
        assertThat(echoTool.path("inputSchema")).isEqualTo(restParameters("echo"));
        assertThat(echoTool.path("annotations").path("readOnlyHint").asBoolean())
                .isTrue();
        assertThat(echoTool.path("hasOutputSchema").asBoolean()).isTrue();

        JsonNode echo = steps.get("echo").path("result");
        assertThat(echo.path("isError").asBoolean()).isFalse();
        assertThat(echo.path("structuredContent").path("stdout").path("text").asString())
                .isEqualTo("from typescript\n");
        assertThat(echo.path("content").get(0).path("text").asString())
                .isEqualTo(Fence.wrap("echo stdout", "from typescript\n"));

        JsonNode bad = steps.get("bad-arguments").path("result");
        assertThat(bad.path("isError").asBoolean()).isTrue();
        assertThat(bad.path("content").get(0).path("text").asString()).contains("arguments.message: must be a string");

        JsonNode pending = steps.get("pending");
        assertThat(pending.path("result").path("isError").asBoolean()).isFalse();
        assertThat(pending.path("result")
                        .path("structuredContent")
                        .path("state")
                        .asString())
                .isEqualTo("PENDING_APPROVAL");
        assertThat(pending.path("result").path("content").get(0).path("text").asString())
                .contains("a human must approve this exact action", "airlock_status");
        assertThat(pending.path("progress")
                        .valueStream()
                        .map(p -> p.path("message").asString())
                        .toList())
                .contains("waiting for 1 more approval");

        assertThat(steps.get("cancel").path("aborted").asBoolean()).isTrue();
        org.awaitility.Awaitility.await("the aborted call's run is cancelled")
                .atMost(java.time.Duration.ofSeconds(10))
                .until(this::latestSlowRunState, "CANCELLED"::equals);
        assertThat(slowRuns()).isEqualTo(slowRunsBefore + 1);
    }

    private int slowRuns() {
        return jdbc.queryForObject(
                "select count(*) from airlock.runs where tenant = 'acme' and agent = 'build-bot'"
                        + " and tool = 'slow'",
                Integer.class);
    }

    private String latestSlowRunState() {
        return jdbc.queryForObject(
                "select state from airlock.runs where tenant = 'acme' and agent = 'build-bot'"
                        + " and tool = 'slow' order by created_at desc limit 1",
                String.class);
    }

    private JsonNode restParameters(String tool) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/tools"))
                                .header("Authorization", "Bearer " + AgentApi.ACME)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return json.readTree(response.body())
                .valueStream()
                .filter(t -> t.path("name").asString().equals(tool))
                .findFirst()
                .orElseThrow()
                .path("parameters");
    }

    /**
     * The Node binary to use ({@code AIRLOCK_NODE}, else {@code node} on the PATH), once it is
     * known to be Node 20 or newer with the pinned SDK installed; otherwise the test is skipped
     * with the reason, or fails in CI.
     */
    private static String requireNodeAndSdk() throws InterruptedException {
        String node = System.getenv().getOrDefault("AIRLOCK_NODE", "node");
        String problem = null;
        try {
            Process version = new ProcessBuilder(node, "--version")
                    .redirectErrorStream(true)
                    .start();
            String text = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!version.waitFor(20, TimeUnit.SECONDS) || version.exitValue() != 0 || !text.matches("v\\d+\\..*")) {
                problem = "'" + node + " --version' failed: " + text;
            } else if (Integer.parseInt(text.substring(1, text.indexOf('.'))) < 20) {
                problem = "Node " + text + " is older than 20";
            }
        } catch (IOException e) {
            problem = "no Node.js ('" + node + "' is not on the PATH)";
        }
        Path sdk = CLIENT.resolve("node_modules/@modelcontextprotocol/sdk/package.json");
        if (problem == null) {
            try {
                if (!Files.readString(sdk).contains("\"version\": \"" + SDK_VERSION + "\"")) {
                    problem = sdk + " is not version " + SDK_VERSION + " (run npm ci in " + CLIENT + ")";
                }
            } catch (IOException e) {
                problem = "the TypeScript SDK is not installed (run npm ci in gateway-api/" + CLIENT + ")";
            }
        }
        if (problem != null && System.getenv("CI") != null) {
            throw new IllegalStateException(
                    "CI must provide Node 20+ and npm ci in gateway-api/" + CLIENT + " (see .ci/run): " + problem);
        }
        Assumptions.assumeTrue(problem == null, "skipped: " + problem);
        return node;
    }
}
