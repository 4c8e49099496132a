package dev.airlock.gateway.approval;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.WebhookReceiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;

/**
 * The tenant's webhook ({@link WebhookReceiver}, which refuses each first delivery) hears of each
 * new pending approval, each final decision and the end of each approved run, each retried until
 * accepted; no payload carries output, not even those sent after the run printed it.
 */
@AirlockIntegrationTest
class ApprovalWebhookIntegrationTests {

    private final WebhookReceiver receiver = WebhookReceiver.shared();

    @Autowired
    MockMvcTester mvc;

    /** Inside the directory the test tools' sandboxes mount read-only. */
    static Path files = dev.airlock.gateway.support.ToolInputs.directory("webhooks");

    @Test
    void announcesTheRequestTheDecisionAndTheEndRetryingAFailingReceiverAndNeverSendsOutput() throws Exception {
        AgentApi api = new AgentApi(mvc);
        // The marker is in what the run prints, not in its arguments (a file name).
        String unique = UUID.randomUUID().toString();
        String marker = "OUTPUT-MARKER-" + unique;
        Path printed = files.resolve("printed.txt");
        Files.writeString(printed, marker + "\n");
        String runId = api.post(
                        ACME,
                        "/api/v1/runs",
                        "{\"tool\":\"hostile-release\",\"arguments\":{\"file\":\"" + printed + "\"}}")
                .text("runId");
        JsonNode requested = receiver.await(runId, "approval.requested");
        assertThat(requested.path("tool").asString()).isEqualTo("hostile-release");
        assertThat(requested.path("console").asString())
                .isEqualTo("https://airlock.example.test/console/runs/" + runId);
        assertThat(receiver.attempts(runId, "approval.requested"))
                .as("refused once, then retried")
                .isEqualTo(2);

        String digest = requested.path("digest").asString();
        assertThat(api.asHuman(
                                "alice",
                                "POST",
                                "/api/v1/approvals/" + runId + "/decisions",
                                "{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}")
                        .status())
                .isEqualTo(200);
        // The decision and the run's end are announced from different threads, in either order.
        JsonNode decided = receiver.await(runId, "approval.decided");
        assertThat(decided.path("status").asString()).isEqualTo("APPROVED");
        JsonNode run = api.get(ACME, "/api/v1/runs/" + runId + "?wait=PT20S").body();
        assertThat(run.path("stdout").path("text").asString())
                .as("the output carries the marker")
                .isEqualTo(marker + "\n");
        JsonNode finished = receiver.await(runId, "run.finished");
        assertThat(finished.path("digest").asString()).isEqualTo(digest);
        assertThat(finished.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(finished.path("exitCode").asInt()).isZero();
        assertThat(finished.path("termination").asString()).isEqualTo("EXITED");

        // A request and a decision announced after the output exists carry none of it either.
        String denied = api.post(ACME, "/api/v1/runs", "{\"tool\":\"release\",\"arguments\":{\"note\":\"later\"}}")
                .text("runId");
        String deniedDigest =
                receiver.await(denied, "approval.requested").path("digest").asString();
        assertThat(api.asHuman(
                                "bob",
                                "POST",
                                "/api/v1/approvals/" + denied + "/decisions",
                                "{\"decision\":\"DENY\",\"reason\":\"not now\",\"digest\":\"" + deniedDigest + "\"}")
                        .status())
                .isEqualTo(200);
        assertThat(receiver.await(denied, "approval.decided").path("status").asString())
                .isEqualTo("DENIED");

        // Nothing more arrives in the next half second.
        org.awaitility.Awaitility.await("no further notification")
                .during(java.time.Duration.ofMillis(500))
                .atMost(java.time.Duration.ofSeconds(2))
                .until(() -> receiver.payloads(runId).size()
                                + receiver.payloads(denied).size()
                        == 5);
        List<String> payloads = new ArrayList<>(receiver.payloads(runId));
        payloads.addAll(receiver.payloads(denied));
        assertThat(payloads)
                .as("three notifications of the approved run, two of the denied one, nothing else")
                .hasSize(5)
                .noneMatch(p -> p.contains("OUTPUT-MARKER") || p.contains(unique));
    }
}
