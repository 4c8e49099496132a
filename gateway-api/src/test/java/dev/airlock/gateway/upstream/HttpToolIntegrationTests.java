package dev.airlock.gateway.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.EvidenceBundles;
import dev.airlock.gateway.support.TestNetwork;
import dev.airlock.gateway.support.TestSecrets;
import dev.airlock.gateway.support.TestUpstream;
import dev.airlock.gateway.support.ToolSnapshots;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;

/**
 * HTTP tools through the agent API, against a real upstream on 127.0.0.1 (the {@link TestUpstream}),
 * with every name resolved and every connection checked by the {@link TestNetwork}.
 */
@AirlockIntegrationTest
class HttpToolIntegrationTests {

    static final String KEY = "webapi-bot-key";

    @Autowired
    io.micrometer.core.instrument.MeterRegistry meters;

    @Autowired
    MockMvcTester mvc;

    AgentApi api;
    final TestUpstream upstream = TestUpstream.shared();

    @BeforeEach
    void setUp() {
        api = new AgentApi(mvc);
    }

    @AfterEach
    void nothingLeftLoopback() {
        assertThat(TestNetwork.VIOLATIONS)
                .as("connections attempted outside loopback")
                .isEmpty();
    }

    private JsonNode run(String tool, String arguments) {
        AgentApi.Response response = api.run(KEY, tool, arguments);
        assertThat(response.status()).as(response.body().toString()).isIn(200, 201);
        return api.readBackTheSame(KEY, response.body());
    }

    @Test
    void callsTheUpstreamWithItsCredentialAndReportsWhatItAnswered() {
        int before = upstream.receivedAt("/v1/services/billing").size();
        JsonNode run = run("service-status", "{\"service\":\"billing\"}");
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(run.path("process").isNull()).isTrue();
        JsonNode http = run.path("http");
        assertThat(http.path("upstream").asString()).isEqualTo("api");
        assertThat(http.path("method").asString()).isEqualTo("GET");
        assertThat(http.path("url").asString()).endsWith("/v1/services/billing").startsWith("http://api.test:");
        assertThat(http.path("status").asInt()).isEqualTo(200);
        assertThat(http.path("termination").asString()).isEqualTo("RESPONDED");
        assertThat(http.path("attempts").asInt()).isEqualTo(1);
        assertThat(http.path("headers").path("content-type").asString()).isEqualTo("application/json");
        assertThat(http.path("bodyIsText").asBoolean()).isTrue();
        assertThat(run.path("stdout").path("text").asString())
                .isEqualTo("{\"service\":\"billing\",\"status\":\"running\"}");
        assertThat(run.path("stdout").path("fenced").asString()).contains("service-status response body");
        assertThat(run.path("rawArtifact").asString()).startsWith("restricted:sha256:");
        List<TestUpstream.Received> received = upstream.receivedAt("/v1/services/billing");
        assertThat(received).hasSize(before + 1);
        assertThat(received.getLast().headers().get("Authorization"))
                .containsExactly("Bearer " + TestSecrets.API_TOKEN);
        assertThat(run.toString()).doesNotContain(TestSecrets.API_TOKEN);
    }

    @Test
    void anHttpRunsEvidenceVerifiesAndItsStatusCannotBeRewritten() throws Exception {
        String runId =
                run("service-status", "{\"service\":\"billing\"}").path("runId").asString();
        EvidenceBundles.Exported exported = EvidenceBundles.export(api, "walt", "webapi", runId);
        EvidenceBundles.Verdict genuine = EvidenceBundles.verify(exported.bundle(), exported.keys());
        assertThat(genuine.status()).as(genuine.out()).isZero();

        // The run's row changed before the export (a 500 shown as a 200): its run.finished event says otherwise.
        EvidenceBundles.Verdict rewritten =
                EvidenceBundles.verifyWithEnvelopeRewritten(exported, "\"status\":200", "\"status\":500", "webapi-1");
        assertThat(rewritten.status()).as(rewritten.out()).isEqualTo(1);
        assertThat(rewritten.out())
                .contains("the envelope's http status is not the one its run.finished event recorded");
    }

    @Test
    void aRequestThatNeedsApprovalIsShownExactlyAndSentAsApproved() {
        String runId = api.park(
                KEY,
                "restart",
                "{\"service\":\"payments\",\"environment\":\"production\",\"drain\":false,\"count\":3,\"note\":\"a \\\"quoted\\\" note\"}");
        JsonNode request = api.asHuman("wes", false, "GET", "/api/v1/approvals/" + runId, null)
                .body();
        StringBuilder lines = new StringBuilder();
        request.path("action").forEach(line -> lines.append(line.asString()).append('\n'));
        String action = lines.toString();
        assertThat(action)
                .contains("upstream: api\n")
                .contains("method: POST\n")
                .contains("/v1/services/payments/restarts?env=production\n")
                .contains("header Authorization: [secret AIRLOCK_TEST_API_TOKEN]\n")
                .contains("header X-Requested-By: airlock\n")
                .contains("header Content-Type: application/json\n")
                .contains("body-sha256: ")
                .contains("body:   \"drain\" : false,")
                .doesNotContain(TestSecrets.API_TOKEN);
        String digest = request.path("summary").path("digest").asString();
        String other = api.park(
                KEY,
                "restart",
                "{\"service\":\"payments\",\"environment\":\"staging\",\"drain\":false,\"count\":3,\"note\":\"a \\\"quoted\\\" note\"}");
        assertThat(api.digest("wes", other))
                .as("another query value, another digest")
                .isNotEqualTo(digest);
        String third = api.park(
                KEY,
                "restart",
                "{\"service\":\"payments\",\"environment\":\"production\",\"drain\":false,\"count\":4,\"note\":\"a \\\"quoted\\\" note\"}");
        assertThat(api.digest("wes", third)).as("another body, another digest").isNotEqualTo(digest);

        int before = upstream.receivedAt("/v1/services/payments/restarts").size();
        AgentApi.Response decided = api.asHuman(
                "wes",
                "POST",
                "/api/v1/approvals/" + runId + "/decisions",
                "{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}");
        assertThat(decided.status()).isEqualTo(200);
        JsonNode run = api.get(KEY, "/api/v1/runs/" + runId + "?wait=PT20S").body();
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(run.path("http").path("status").asInt()).isEqualTo(202);
        List<TestUpstream.Received> sent = upstream.receivedAt("/v1/services/payments/restarts");
        assertThat(sent).hasSize(before + 1);
        TestUpstream.Received received = sent.getLast();
        assertThat(received.method()).isEqualTo("POST");
        assertThat(received.rawQuery()).isEqualTo("env=production");
        assertThat(received.bodyText()).isEqualTo("{\"drain\":false,\"count\":3,\"note\":\"a \\\"quoted\\\" note\"}");
        assertThat(received.headers().get("X-requested-by")).containsExactly("airlock");
        for (String id : List.of(other, third)) {
            api.post(KEY, "/api/v1/runs/" + id + "/cancel", "");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"%2F..%2Fadmin", "..%5Cadmin", "x?admin=1", "x#frag", "é ñ", "a;b=c,d"})
    void aPathParameterStaysOneEncodedSegment(String segment) {
        String json = tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(segment);
        JsonNode run = run("echo-path", "{\"segment\":" + json + ",\"query\":\"a&b=c\"}");
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        TestUpstream.Received received = upstream.receivedAt("/v1/echo/").getLast();
        assertThat(received.rawPath()).startsWith("/v1/echo/");
        String encoded = received.rawPath().substring("/v1/echo/".length());
        assertThat(encoded).doesNotContain("/", "?", "#", "\r", "\n", " ");
        assertThat(java.net.URLDecoder.decode(encoded.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(segment);
        assertThat(received.rawQuery()).isEqualTo("q=a%26b%3Dc");
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", ".", "", "a\\r\\nX-Injected: 1", "../admin", "a/b", "..\\\\admin"})
    void aDotSegmentAnEmptyOneOrALineBreakIsRefusedBeforeAnythingIsSent(String segment) {
        int before = upstream.received.size();
        AgentApi.Response response = api.run(KEY, "echo-path", "{\"segment\":\"" + segment + "\"}");
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.body().toString()).contains("arguments.segment");
        assertThat(upstream.received).hasSize(before);
    }

    @Test
    void aHeaderParameterCannotBreakTheHeader() {
        AgentApi.Response response = api.run(KEY, "echo-header", "{\"note\":\"fine\\r\\nX-Injected: yes\"}");
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.body().toString()).contains("arguments.note");
        AgentApi.Response unicode = api.run(KEY, "echo-header", "{\"note\":\"caf\u00e9\"}");
        assertThat(unicode.status()).isEqualTo(400);
        assertThat(unicode.body().toString()).contains("arguments.note").contains("header X-Note");
        JsonNode ok = run("echo-header", "{\"note\":\"all fine\"}");
        assertThat(ok.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(upstream.receivedAt("/v1/echo-header").getLast().headers().get("X-note"))
                .containsExactly("all fine");
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
    void theCredentialEchoedBackNeverReachesTheAgentNorTheLog(org.springframework.boot.test.system.CapturedOutput log) {
        JsonNode run = run("echo-auth", "{}");
        assertThat(log.getAll())
                .as("the client's header log, asked for at DEBUG by the test settings")
                .contains("HTTP call to upstream api: GET")
                .doesNotContain(TestSecrets.API_TOKEN);
        String text = run.path("stdout").path("text").asString();
        assertThat(text).startsWith("you sent: Bearer [REDACTED:").doesNotContain(TestSecrets.API_TOKEN);
        assertThat(run.path("stdout").path("redactions").asLong()).isEqualTo(1);
        assertThat(run.path("stdout").path("sha256").asString())
                .as("the body's digest is of the body with the credential replaced: no guess of it can be tested")
                .isEqualTo(dev.airlock.kernel.digest.Sha256.hex(text))
                .isNotEqualTo(dev.airlock.kernel.digest.Sha256.hex("you sent: Bearer " + TestSecrets.API_TOKEN + "\n"));
    }

    @Test
    void theCredentialEchoedEscapedOrEncodedNeverReachesTheAgentEither() {
        JsonNode run = run("echo-auth-forms", "{}");
        assertThat(run.path("http").path("status").asInt()).isEqualTo(200);
        String text = run.path("stdout").path("text").asString();
        String basic = java.util.Base64.getEncoder()
                .encodeToString(("robot:" + TestSecrets.ODD_PASSWORD).getBytes(StandardCharsets.UTF_8));
        assertThat(text)
                .contains("\"header\":\"Basic [REDACTED:", "\"password\":\"[REDACTED:", "\"query\":\"pw=[REDACTED:")
                .doesNotContain(basic.replace("/", "\\/"), "p\\/ss", "p%2Fss", "w0rd");
        assertThat(run.path("stdout").path("redactions").asLong()).isEqualTo(3);
    }

    @Test
    void aHostileBodyArrivesInertAndFenced() {
        JsonNode run = run("hostile", "{}");
        String text = run.path("stdout").path("text").asString();
        assertThat(text).doesNotContain("\u001b", "\u0007", "\u200b", "\u202e").contains("red", "zerowidth");
        assertThat(run.path("stdout").path("removed").path("csi").asLong()).isPositive();
        String fenced = run.path("stdout").path("fenced").asString();
        assertThat(fenced.lines().filter(l -> l.startsWith("Airlock:"))).isEmpty();
    }

    @Test
    void aBodyThatIsNotTextIsKeptOnlyInTheRawArtifact() {
        for (String tool : List.of("binary", "zeros")) {
            JsonNode run = run(tool, "{}");
            assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
            assertThat(run.path("http").path("bodyIsText").asBoolean()).as(tool).isFalse();
            assertThat(run.path("stdout").path("text").asString()).as(tool).isEmpty();
            assertThat(run.path("stdout").path("observedBytes").asLong())
                    .as(tool)
                    .isPositive();
            assertThat(run.path("stdout").path("sha256").asString()).hasSize(64);
        }
    }

    @Test
    void aClientOrServerErrorIsACompletedRunWithItsStatusAndOnlyIdempotentRequestsAreRetried() {
        JsonNode notFound = run("status", "{\"code\":404}");
        assertThat(notFound.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(notFound.path("http").path("status").asInt()).isEqualTo(404);
        assertThat(notFound.path("http").path("attempts").asInt()).isEqualTo(1);

        int before = upstream.unavailable.get();
        JsonNode get = run("status", "{\"code\":503}");
        assertThat(get.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(get.path("http").path("status").asInt()).isEqualTo(503);
        assertThat(get.path("http").path("attempts").asInt()).isEqualTo(3);
        assertThat(upstream.unavailable.get() - before).isEqualTo(3);

        JsonNode post = run("post-status", "{\"code\":503}");
        assertThat(post.path("http").path("attempts").asInt()).isEqualTo(1);
        assertThat(upstream.unavailable.get() - before).isEqualTo(4);
    }

    @Test
    void aSlowUpstreamTimesOutAtTheToolsLimit() {
        JsonNode run = run("slow", "{}");
        assertThat(run.path("state").asString()).isEqualTo("TIMED_OUT");
        assertThat(run.path("http").path("termination").asString()).isEqualTo("TIMED_OUT");
        assertThat(run.path("http").path("status").isNull()).isTrue();
    }

    @Test
    void aBodyPastTheLimitIsCutAndNothingPastItKept() {
        for (String tool : List.of("big", "endless")) {
            JsonNode run = run(tool, "{}");
            assertThat(run.path("state").asString()).as(tool).isEqualTo("COMPLETED");
            assertThat(run.path("http").path("termination").asString()).as(tool).isEqualTo("RESPONSE_LIMIT");
            assertThat(run.path("stdout").path("observedBytes").asLong())
                    .as(tool)
                    .isEqualTo(64 * 1024);
        }
    }

    @Test
    void aRedirectIsFollowedOnlyWithinTheOrigin() {
        JsonNode away = run("redirect-away", "{}");
        assertThat(away.path("state").asString()).isEqualTo("FAILED");
        assertThat(away.path("http").path("termination").asString()).isEqualTo("REFUSED");
        assertThat(away.path("http").path("reason").asString()).contains("another origin", "other.test");
        JsonNode home = run("redirect-home", "{}");
        assertThat(home.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(home.path("http").path("status").asInt()).isEqualTo(200);
        assertThat(home.path("stdout").path("text").asString()).contains("\"service\":\"home\"");
        for (String tool : List.of("redirect-out", "redirect-dots", "redirect-raw-dots", "redirect-param-dots")) {
            JsonNode out = run(tool, "{}");
            assertThat(out.path("http").path("termination").asString())
                    .as("%s: within the origin but not below the base URL", tool)
                    .isEqualTo("REFUSED");
            assertThat(out.path("http").path("reason").asString()).contains("outside its base URL");
        }
        assertThat(upstream.receivedAt("/billing"))
                .as("nothing sent outside the base URL")
                .isEmpty();
        assertThat(upstream.receivedAt("/v1/%2e%2e")).isEmpty();
        assertThat(upstream.receivedAt("/v1/..")).isEmpty();
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
    void aRedirectWithAnEncodedLineBreakIsRefusedAndCannotStartALineOfTheLog(
            org.springframework.boot.test.system.CapturedOutput log) {
        // Decoded, the path holds a line break: no server's path does, and a log that decoded it would be forged.
        JsonNode run = run("redirect-crlf", "{}");
        assertThat(run.path("http").path("termination").asString())
                .as(run.toString())
                .isEqualTo("REFUSED");
        assertThat(run.path("http").path("status").asInt()).isEqualTo(302);
        assertThat(run.path("http").path("reason").asString()).contains("outside its base URL");
        assertThat(upstream.receivedAt("/v1/services/home%0d%0a"))
                .as("nothing sent on")
                .isEmpty();
        assertThat(log.getAll().lines()).noneMatch(l -> l.startsWith("FORGED"));
    }

    @Autowired
    UpstreamClients clients;

    @Autowired
    dev.airlock.gateway.tool.ToolCatalog catalog;

    @Autowired
    dev.airlock.gateway.capture.SecretSource secrets;

    @Test
    void aRunIsNotSentToAnUpstreamThatChangedSinceItWasRequested() {
        dev.airlock.gateway.tool.Tool tool = catalog.find("webapi", "echo-path").orElseThrow();
        dev.airlock.gateway.tool.ToolSnapshot now = tool.snapshot();
        dev.airlock.gateway.tool.HttpUpstream recorded = java.util.Objects.requireNonNull(now.upstream());
        String oldBase = "http://127.0.0.1:" + upstream.port() + "/old";
        // As recorded when the run was requested: the same upstream, then at another base URL.
        dev.airlock.gateway.tool.ToolSnapshot then = ToolSnapshots.withUpstream(
                now,
                new dev.airlock.gateway.tool.HttpUpstream(
                        recorded.name(), oldBase, recorded.allowPrivateNetwork(), recorded.auth()));
        dev.airlock.gateway.tool.RenderedRequest request = new dev.airlock.gateway.tool.RenderedRequest(
                recorded.name(), "GET", oldBase + "/echo/x", List.of(), null, null, null, true);
        int before = upstream.received.size();
        var result = new HttpCalls(clients, secrets, java.time.Clock.systemUTC())
                .call("webapi", then, request, dev.airlock.egress.CallControl.NONE);
        assertThat(result.termination().name()).isEqualTo("REFUSED");
        assertThat(((dev.airlock.gateway.capture.CallFacts) java.util.Objects.requireNonNull(result.call())).reason())
                .contains("has changed since the run was requested");
        assertThat(upstream.received).as("nothing was sent").hasSize(before);
    }

    @Test
    void aRequestThatIsNotIdempotentIsNotSentAgainByA307() {
        int before = upstream.receivedAt("/v1/redirect-repeat").size();
        int home = upstream.receivedAt("/v1/services/home").size();
        JsonNode run = run("redirect-repeat", "{}");
        assertThat(run.path("state").asString()).isEqualTo("FAILED");
        assertThat(run.path("http").path("termination").asString()).isEqualTo("REFUSED");
        assertThat(run.path("http").path("reason").asString()).contains("not idempotent", "307");
        assertThat(upstream.receivedAt("/v1/redirect-repeat")).hasSize(before + 1);
        assertThat(upstream.receivedAt("/v1/services/home"))
                .as("never sent a second time")
                .hasSize(home);
    }

    @Test
    void aPostRedirectedTowardsAGetOfAnotherUrlIsRefusedNotFollowed() {
        // A POST "answered" by the 200 of the page it was sent on to did not succeed: the agent reads the 302.
        int before = upstream.receivedAt("/v1/redirect-home").size();
        int home = upstream.receivedAt("/v1/services/home").size();
        JsonNode run = run("redirect-login", "{}");
        assertThat(run.path("state").asString()).isEqualTo("FAILED");
        JsonNode http = run.path("http");
        assertThat(http.path("termination").asString()).isEqualTo("REFUSED");
        assertThat(http.path("method").asString()).isEqualTo("POST");
        assertThat(http.path("status").asInt()).isEqualTo(302);
        assertThat(http.path("reason").asString()).contains("POST request with 302", "not followed");
        assertThat(upstream.receivedAt("/v1/redirect-home")).hasSize(before + 1);
        assertThat(upstream.receivedAt("/v1/services/home"))
                .as("no GET sent on")
                .hasSize(home);
    }

    @Test
    void aRetryAnsweredWithoutABodyDoesNotShowTheBodyOfTheAttemptCutShort() {
        JsonNode run = run("cut-then-empty", "{}");
        assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("COMPLETED");
        assertThat(run.path("http").path("status").asInt()).isEqualTo(204);
        assertThat(run.path("http").path("attempts").asInt()).isEqualTo(2);
        assertThat(run.path("stdout").path("text").asString())
                .as("the first attempt's bytes are not the answer's")
                .isEmpty();
        assertThat(run.path("stdout").path("observedBytes").asLong()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"unpermitted", "metadata", "private", "ula", "mapped", "ec2-v6"})
    void theGuardRefusesNonPublicAddressesWithoutSendingAnything(String tool) {
        int before = upstream.received.size();
        JsonNode run = run(tool, "{}");
        assertThat(run.path("state").asString()).isEqualTo("FAILED");
        assertThat(run.path("http").path("termination").asString()).isEqualTo("REFUSED");
        assertThat(run.path("http").path("reason").asString()).contains("does not allow private networks");
        assertThat(upstream.received).as("nothing reached the upstream").hasSize(before);
    }

    @Test
    void aDeadUpstreamOpensItsBreakerWhichLetsCallsThroughAfterItsWait() {
        for (int i = 0; i < 3; i++) {
            JsonNode run = run("dead", "{}");
            assertThat(run.path("state").asString()).isEqualTo("FAILED");
            assertThat(run.path("http").path("termination").asString()).isEqualTo("CONNECT_FAILED");
        }
        JsonNode open = run("dead", "{}");
        assertThat(open.path("http").path("termination").asString()).isEqualTo("CIRCUIT_OPEN");
        assertThat(open.path("http").path("attempts").asInt()).isZero();
        assertThat(meters.find("resilience4j.circuitbreaker.state")
                        .tags("name", "webapi/dead", "state", "open")
                        .gauge())
                .as("the breaker's state is a metric named by tenant and upstream")
                .isNotNull()
                .extracting(io.micrometer.core.instrument.Gauge::value)
                .isEqualTo(1.0);
        org.awaitility.Awaitility.await("the breaker lets a call through again")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> run("dead", "{}").path("http").path("termination").asString(), "CONNECT_FAILED"::equals);
    }

    @Test
    void cancellingASlowCallCutsIt() {
        String runId = api.post(KEY, "/api/v1/runs", "{\"tool\":\"slow-cancel\",\"arguments\":{}}")
                .text("runId");
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> api.get(KEY, "/api/v1/runs/" + runId).text("state").equals("RUNNING"));
        api.post(KEY, "/api/v1/runs/" + runId + "/cancel", "");
        JsonNode run = api.get(KEY, "/api/v1/runs/" + runId + "?wait=PT10S").body();
        assertThat(run.path("state").asString()).isEqualTo("CANCELLED");
        assertThat(run.path("http").path("termination").asString()).isEqualTo("CANCELLED");
    }
}
