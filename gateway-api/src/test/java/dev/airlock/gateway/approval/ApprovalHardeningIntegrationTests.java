package dev.airlock.gateway.approval;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/** Approvals fail closed: only an exact decision counts, closed requests stay closed, no hint helps a forger. */
@AirlockIntegrationTest
class ApprovalHardeningIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase jdbc;

    AgentApi api;

    @BeforeEach
    void setUp() {
        api = new AgentApi(mvc);
    }

    private AgentApi.Response decideJson(String runId, String decisionJson, String reason, String digest) {
        String body = "{\"decision\":" + decisionJson + ",\"reason\":"
                + (reason == null ? "null" : "\"" + reason + "\"") + ",\"digest\":\"" + digest + "\"}";
        return api.asHuman("alice", true, "POST", "/api/v1/approvals/" + runId + "/decisions", body);
    }

    private int decisionsOn(String runId) {
        return jdbc.sql("SELECT count(*) FROM airlock.approval_decisions WHERE run_id = ?")
                .param(UUID.fromString(runId))
                .query(Integer.class)
                .single();
    }

    private String state(String runId) {
        return api.get(ACME, "/api/v1/runs/" + runId).text("state");
    }

    private MvcTestResult consoleDecision(String runId, String decision, String reason, String digest) {
        var request = mvc.post()
                .uri("/console/runs/" + runId + "/decisions")
                .with(user("alice").authorities(new SimpleGrantedAuthority("APPROVER:acme")))
                .with(csrf())
                .param("digest", digest);
        if (decision != null) {
            request = request.param("decision", decision);
        }
        if (reason != null) {
            request = request.param("reason", reason);
        }
        return request.exchange();
    }

    @Test
    void theApiRecordsNothingButAnExactApproveOrDeny() {
        String runId = api.park(ACME, "release", "{\"note\":\"exact\"}");
        String digest = api.digest("alice", runId);
        for (String decision : new String[] {
            "\"garbage\"", "\"\"", "\" APPROVE\"", "\"Approve\"", "\"APPROVED\"", "null", "true", "\"deny \""
        }) {
            AgentApi.Response response = decideJson(runId, decision, "because", digest);
            assertThat(response.status()).as(decision).isEqualTo(400);
            assertThat(response.text("detail"))
                    .as(decision)
                    .containsAnyOf("exactly APPROVE or DENY", "field 'decision' has the wrong JSON type");
            assertThat(response.text("field")).as(decision).isEqualTo("decision");
        }
        assertThat(decisionsOn(runId)).isZero();
        assertThat(state(runId)).isEqualTo("PENDING_APPROVAL");
        assertThat(decideJson(runId, "\"deny\"", "lower case is still a denial", digest)
                        .status())
                .isEqualTo(200);
        assertThat(state(runId)).isEqualTo("DENIED");
    }

    @Test
    void theConsoleRecordsNothingButAnExactApproveOrDeny() {
        String runId = api.park(ACME, "release", "{\"note\":\"console exact\"}");
        String digest = api.digest("alice", runId);
        for (String decision : new String[] {"garbage", "", "Approve", " DENY", null}) {
            MvcTestResult result = consoleDecision(runId, decision, "because", digest);
            assertThat(result).hasStatus3xxRedirection();
            assertThat((String) result.getMvcResult().getFlashMap().get("error"))
                    .as(String.valueOf(decision))
                    .contains("Nothing was recorded");
        }
        assertThat(decisionsOn(runId)).isZero();
        assertThat(state(runId)).isEqualTo("PENDING_APPROVAL");

        MvcTestResult denied = consoleDecision(runId, "deny", "lower-case deny from a crafted form", digest);
        assertThat(denied.getMvcResult().getFlashMap().get("message")).isEqualTo("Your denial is recorded.");
        assertThat(state(runId)).isEqualTo("DENIED");
    }

    @Test
    void cancellingAParkedRunClosesItsRequestAndLaterDecisionsAreConflicts() {
        String runId = api.park(ACME, "release", "{\"note\":\"to cancel\"}");
        String digest = api.digest("alice", runId);
        assertThat(api.post(ACME, "/api/v1/runs/" + runId + "/cancel", "").text("state"))
                .isEqualTo("CANCELLED");

        assertThat(api.asHuman("alice", false, "GET", "/api/v1/approvals/" + runId, null)
                        .body()
                        .path("summary")
                        .path("status")
                        .asString())
                .isEqualTo("CANCELLED");
        assertThat(jdbc.sql("SELECT actor FROM airlock.audit_events WHERE run_id = ? AND type = 'approval.cancelled'")
                        .param(UUID.fromString(runId))
                        .query(String.class)
                        .list())
                .containsExactly("agent:build-bot");

        AgentApi.Response late = decideJson(runId, "\"APPROVE\"", null, digest);
        assertThat(late.status()).isEqualTo(409);
        assertThat(late.text("reason")).isEqualTo("NOT_PENDING");
        assertThat(late.text("detail")).contains("cancelled");
        assertThat(decisionsOn(runId)).isZero();
        assertThat(state(runId)).isEqualTo("CANCELLED");
        assertThat(api.asHuman("alice", false, "GET", "/api/v1/approvals?status=pending", null)
                        .body()
                        .valueStream()
                        .map(a -> a.path("runId").asString())
                        .toList())
                .doesNotContain(runId);
    }

    @Test
    void oneRequestThatCannotExpireNeverStopsTheOthers() throws Exception {
        String broken = api.park(ACME, "short-lived", "{}");
        // A request whose run cannot be found under its tenant: applying its expiry throws every time.
        // Only damage behind the database's back makes one (the run-tenant key refuses it), so the
        // owner writes it with the key's trigger out of the way.
        jdbc.sql("DO $$ BEGIN SET LOCAL session_replication_role = replica; UPDATE airlock.approval_requests"
                        + " SET tenant = 'nowhere' WHERE run_id = '" + UUID.fromString(broken) + "'; END $$")
                .update();
        String healthy = api.park(ACME, "short-lived", "{}");
        AgentApi.Response ended = api.get(ACME, "/api/v1/runs/" + healthy + "?wait=PT10S");
        assertThat(ended.text("state")).isEqualTo("EXPIRED");
        assertThat(jdbc.sql("SELECT status FROM airlock.approval_requests WHERE run_id = ?")
                        .param(UUID.fromString(broken))
                        .query(String.class)
                        .single())
                .isEqualTo("PENDING");
        // Put it back so the shared database holds no broken row for other tests.
        jdbc.sql("UPDATE airlock.approval_requests SET tenant = 'acme' WHERE run_id = ?")
                .param(UUID.fromString(broken))
                .update();
        assertThat(api.get(ACME, "/api/v1/runs/" + broken + "?wait=PT10S").text("state"))
                .isEqualTo("EXPIRED");
    }

    @Test
    void aReasonOfInvisibleCharactersIsNoReason() {
        String runId = api.park(ACME, "release", "{\"note\":\"invisible reason\"}");
        String digest = api.digest("alice", runId);
        for (String reason : new String[] {"\\u200b\\u202e", "\\u3000\\u00a0", "\\ufe0f\\u2060", " \\t "}) {
            AgentApi.Response refused = decideJson(runId, "\"DENY\"", reason, digest);
            assertThat(refused.status()).as(reason).isEqualTo(409);
            assertThat(refused.text("reason")).isEqualTo("REASON_REQUIRED");
        }
        assertThat(decisionsOn(runId)).isZero();
    }

    @Test
    void aDigestMismatchNeverRevealsTheCurrentDigest() {
        String runId = api.park(ACME, "release", "{\"note\":\"stale view\"}");
        String digest = api.digest("alice", runId);
        AgentApi.Response refused = decideJson(runId, "\"APPROVE\"", null, "0".repeat(64));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.text("reason")).isEqualTo("DIGEST_MISMATCH");
        assertThat(refused.body().toString()).doesNotContain(digest).doesNotContain(digest.substring(0, 12));
        assertThat(refused.text("detail")).contains("review the action again");
    }

    @Test
    void refusesAReasonLongerThanPeopleMayType() {
        String runId = api.park(ACME, "release", "{\"note\":\"long reason\"}");
        String digest = api.digest("alice", runId);
        AgentApi.Response tooLong = decideJson(runId, "\"DENY\"", "x".repeat(2001), digest);
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.text("field")).isEqualTo("reason");
        assertThat(tooLong.text("detail")).contains("'reason'").contains("2000").doesNotContain("xxxx");
        assertThat(decisionsOn(runId)).isZero();

        MvcTestResult console = consoleDecision(runId, "DENY", "y".repeat(2001), digest);
        assertThat((String) console.getMvcResult().getFlashMap().get("error")).contains("'reason'");
        assertThat(decisionsOn(runId)).isZero();

        assertThat(decideJson(runId, "\"DENY\"", "x".repeat(2000), digest).status())
                .isEqualTo(200);
        assertThat(api.get(ACME, "/api/v1/runs/" + runId + "?wait=PT5S")
                        .body()
                        .path("approval")
                        .path("decisions")
                        .get(0)
                        .path("reason")
                        .asString())
                .hasSize(2000);

        String grantRun = api.run(ACME, "echo", "{\"message\":\"grant me\"}").text("runId");
        AgentApi.Response grant = api.asHuman(
                "bob",
                "POST",
                "/api/v1/audit/runs/" + grantRun + "/raw-grants?tenant=acme",
                "{\"reason\":\"" + "z".repeat(2001) + "\"}");
        assertThat(grant.status()).isEqualTo(400);
        assertThat(grant.text("field")).isEqualTo("reason");
        AgentApi.Response hold = api.asHuman(
                "frank",
                "PUT",
                "/api/v1/audit/runs/" + grantRun + "/legal-hold?tenant=acme",
                "{\"reason\":\"" + "h".repeat(2001) + "\"}");
        assertThat(hold.status()).isEqualTo(400);
        assertThat(hold.text("field")).isEqualTo("reason");
    }

    /**
     * Text a person sends that the database cannot store (NUL) or that is no text (an escape
     * sequence, a JSON boolean or number) is a 400 naming the field, never a 500 or "false".
     */
    @Test
    void refusesControlCharactersAndNonStringsInWhatPeopleTypeNamingTheField() {
        String runId = api.park(ACME, "release", "{\"note\":\"nul reason\"}");
        String digest = api.digest("alice", runId);
        for (String reason : List.of("no\\u0000", "\\u001b[31mred", "half \\ud800 a pair")) {
            AgentApi.Response refused = decideJson(runId, "\"DENY\"", reason, digest);
            assertThat(refused.status()).as(reason).isEqualTo(400);
            assertThat(refused.text("field")).as(reason).isEqualTo("reason");
        }
        AgentApi.Response notText = api.asHuman(
                "alice",
                true,
                "POST",
                "/api/v1/approvals/" + runId + "/decisions",
                "{\"decision\":\"DENY\",\"reason\":false,\"digest\":\"" + digest + "\"}");
        assertThat(notText.status()).isEqualTo(400);
        assertThat(notText.text("field")).isEqualTo("reason");
        assertThat(decisionsOn(runId)).isZero();
        assertThat(decideJson(runId, "\"DENY\"", "two\\nlines\\tand a tab, a whole pair \\ud83d\\ude00", digest)
                        .status())
                .isEqualTo(200);

        String grantRun = api.run(ACME, "echo", "{\"message\":\"nul grant\"}").text("runId");
        for (String[] request : List.of(
                new String[] {"bob", "POST", "/raw-grants", "{\"reason\":\"x\\u0000\"}"},
                new String[] {"bob", "POST", "/raw-grants", "{\"reason\":0}"},
                new String[] {"frank", "PUT", "/legal-hold", "{\"reason\":\"x\\u0000\"}"})) {
            AgentApi.Response refused = api.asHuman(
                    request[0], request[1], "/api/v1/audit/runs/" + grantRun + request[2] + "?tenant=acme", request[3]);
            assertThat(refused.status()).as(request[3]).isEqualTo(400);
            assertThat(refused.text("field")).as(request[3]).isEqualTo("reason");
        }
    }
}
