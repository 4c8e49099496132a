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

    /**
     * Every attempt is signed as the Standard Webhooks specification says, checked here with the
     * JDK's HMAC from the secret file (not with Airlock's code), and a retry keeps its delivery's id.
     */
    private static void signedAsStandardWebhooksSays(java.util.List<java.util.Map<String, String>> attempts)
            throws Exception {
        assertThat(attempts).hasSize(2);
        String secret = Files.readString(Path.of(WebhookReceiver.SECRET_FILE)).strip();
        byte[] key = java.util.Base64.getDecoder().decode(secret.substring("whsec_".length()));
        for (java.util.Map<String, String> attempt : attempts) {
            String id = attempt.get("webhook-id");
            String timestamp = attempt.get("webhook-timestamp");
            assertThat(id).startsWith("msg_");
            assertThat(Long.parseLong(timestamp))
                    .isCloseTo(java.time.Instant.now().getEpochSecond(), org.assertj.core.data.Offset.offset(300L));
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
            String expected = "v1,"
                    + java.util.Base64.getEncoder()
                            .encodeToString(mac.doFinal((id + "." + timestamp + "." + attempt.get("body"))
                                    .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            assertThat(attempt.get("webhook-signature")).isEqualTo(expected);
        }
        assertThat(attempts.get(1).get("webhook-id"))
                .as("a retry is the same delivery")
                .isEqualTo(attempts.get(0).get("webhook-id"));
    }

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
        signedAsStandardWebhooksSays(receiver.deliveries(runId, "approval.requested"));

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
