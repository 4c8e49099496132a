package dev.airlock.gateway.approval;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static dev.airlock.gateway.support.AgentApi.ACME_OTHER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;

/** Humans authorize exact actions: the approver API, quorum, denial, expiry, and what runs after. */
@AirlockIntegrationTest
class ApprovalFlowIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase jdbc;

    AgentApi api;

    @BeforeEach
    void setUp() {
        api = new AgentApi(mvc);
    }

    private AgentApi.Response decide(String user, String runId, String decision, String reason, String digest) {
        String body = "{\"decision\":\"" + decision + "\",\"reason\":"
                + (reason == null ? "null" : "\"" + reason + "\"") + ",\"digest\":\"" + digest + "\"}";
        return api.asHuman(user, "POST", "/api/v1/approvals/" + runId + "/decisions", body);
    }

    private JsonNode request(String user, String runId) {
        AgentApi.Response response = api.asHuman(user, false, "GET", "/api/v1/approvals/" + runId, null);
        assertThat(response.status()).isEqualTo(200);
        return response.body();
    }

    @Test
    void twoApproversLetTheExactActionRunOnce() {
        String runId = api.park(ACME, "deploy", "{\"service\":\"billing\"}");
        JsonNode pending = request("alice", runId);
        assertThat(pending.path("action").valueStream().map(JsonNode::asString).toList())
                .containsExactly(
                        "tenant: acme",
                        "tool: deploy",
                        "argv[0]: echo",
                        "argv[1]: deploying",
                        "argv[2]: billing",
                        "working-dir: (a fresh empty directory)",
                        "timeout: PT30S",
                        "sandbox: bubblewrap",
                        "sandbox network: none (a loopback of its own)",
                        "sandbox limits: processes 256, memory 1073741824 B, file size 1073741824 B, open files 1024, tmp 268435456 B",
                        "policy-rule: the tool's own settings");
        String digest = pending.path("summary").path("digest").asString();
        assertThat(api.asHuman("alice", false, "GET", "/api/v1/approvals?status=pending", null)
                        .body()
                        .valueStream()
                        .map(a -> a.path("runId").asString())
                        .toList())
                .contains(runId);

        assertThat(decide("alice", runId, "APPROVE", "ticket OPS-12", digest).status())
                .isEqualTo(200);
        assertThat(api.get(ACME, "/api/v1/runs/" + runId).text("state")).isEqualTo("PENDING_APPROVAL");
        AgentApi.Response again = decide("alice", runId, "APPROVE", null, digest);
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.text("reason")).isEqualTo("ALREADY_DECIDED");

        assertThat(decide("bob", runId, "APPROVE", null, digest).status()).isEqualTo(200);
        JsonNode run = api.get(ACME, "/api/v1/runs/" + runId + "?wait=PT20S").body();
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(run.path("stdout").path("text").asString()).isEqualTo("deploying billing\n");
        assertThat(run.path("approval").path("status").asString()).isEqualTo("APPROVED");
        assertThat(run.path("approval")
                        .path("decisions")
                        .valueStream()
                        .map(d -> d.path("approver").asString())
                        .toList())
                .containsExactly("alice", "bob");
        assertThat(run.path("approval").path("decisions").get(0).path("reason").asString())
                .isEqualTo("ticket OPS-12");
        assertThat(jdbc.sql("SELECT count(*) FROM airlock.run_streams WHERE run_id = ?::uuid AND stream = 'stdout'")
                        .param(runId)
                        .query(Integer.class)
                        .single())
                .isEqualTo(1);
        assertThat(request("alice", runId).path("summary").path("status").asString())
                .isEqualTo("APPROVED");
    }

    @Test
    void aRunWhoseAgentOrToolWasRemovedWhileItWaitedIsRefusedWhenApproved() {
        // As after a restart with another configuration: the run's agent, or its tool, is gone.
        String agentGone = api.park(ACME, "deploy", "{\"service\":\"ledger\"}");
        jdbc.sql("UPDATE airlock.runs SET agent = 'retired-bot' WHERE id = ?::uuid")
                .param(agentGone)
                .update();
        String toolGone = api.park(ACME, "deploy", "{\"service\":\"archive\"}");
        jdbc.sql("UPDATE airlock.runs SET tool = 'retired-tool' WHERE id = ?::uuid")
                .param(toolGone)
                .update();
        for (String[] expected : List.of(
                new String[] {agentGone, "agent retired-bot is no longer configured"},
                new String[] {toolGone, "tool retired-tool is no longer configured for agent build-bot"})) {
            String runId = expected[0];
            String digest =
                    request("alice", runId).path("summary").path("digest").asString();
            assertThat(decide("alice", runId, "APPROVE", null, digest).status()).isEqualTo(200);
            assertThat(decide("bob", runId, "APPROVE", null, digest).status()).isEqualTo(200);
            java.util.Map<String, Object> ended = org.awaitility.Awaitility.await("the approved run ends")
                    .atMost(java.time.Duration.ofSeconds(20))
                    .until(
                            () -> jdbc.sql("SELECT state, termination, failure, started_at FROM airlock.runs"
                                            + " WHERE id = ?::uuid")
                                    .param(runId)
                                    .query()
                                    .singleRow(),
                            row -> !List.of("APPROVED", "RUNNING").contains(String.valueOf(row.get("state"))));
            assertThat(ended.get("state")).as(runId).isEqualTo("FAILED");
            assertThat(ended.get("termination")).isEqualTo("SPAWN_FAILED");
            assertThat(String.valueOf(ended.get("failure"))).isEqualTo(expected[1]);
        }
    }

    @Test
    void theListOfRequestsIsReadAPageAtATimeFollowingItsNextLink() {
        List<String> parked = List.of(
                api.park(ACME, "deploy", "{\"service\":\"page-one\"}"),
                api.park(ACME, "deploy", "{\"service\":\"page-two\"}"),
                api.park(ACME, "deploy", "{\"service\":\"page-three\"}"));
        try {
            for (String status : List.of("pending", "all")) {
                List<String> seen = new java.util.ArrayList<>();
                List<java.time.Instant> times = new java.util.ArrayList<>();
                String path = "/api/v1/approvals?status=" + status + "&limit=2";
                int pages = 0;
                while (path != null && pages < 20 && !seen.containsAll(parked)) {
                    AgentApi.Response page = api.asHuman("alice", false, "GET", path, null);
                    assertThat(page.status()).isEqualTo(200);
                    assertThat(page.body().size()).as("at most the limit").isBetween(1, 2);
                    page.body().valueStream().forEach(r -> {
                        seen.add(r.path("runId").asString());
                        times.add(java.time.Instant.parse(r.path("createdAt").asString()));
                    });
                    String link = page.headers().getFirst("Link");
                    path = link == null ? null : link.substring(link.indexOf('<') + 1, link.indexOf('>'));
                    if (link != null) {
                        assertThat(link).endsWith(">; rel=\"next\"").contains("status=" + status, "limit=2");
                    }
                    pages++;
                }
                assertThat(pages)
                        .as(status + ": three requests of ours, two to a page")
                        .isGreaterThanOrEqualTo(2);
                assertThat(seen).as(status).containsAll(parked).doesNotHaveDuplicates();
                assertThat(times)
                        .as(status + ": newest first")
                        .isSortedAccordingTo(java.util.Comparator.reverseOrder());
            }
            // The filters narrow the query: the newest request (a release) is not the first page of deploys.
            String release = api.park(ACME, "release", "{\"note\":\"newest\"}");
            try {
                AgentApi.Response deploys =
                        api.asHuman("alice", false, "GET", "/api/v1/approvals?tool=deploy&limit=1", null);
                assertThat(deploys.body()
                                .valueStream()
                                .map(r -> r.path("tool").asString())
                                .toList())
                        .containsExactly("deploy");
                assertThat(deploys.headers().getFirst("Link")).contains("tool=deploy");
                assertThat(api.asHuman("alice", false, "GET", "/api/v1/approvals?tenant=globex", null)
                                .body()
                                .size())
                        .as("a tenant not the person's")
                        .isZero();
            } finally {
                api.post(ACME, "/api/v1/runs/" + release + "/cancel", "");
            }
            for (String[] bad : new String[][] {
                {"limit=0", "limit"},
                {"limit=501", "limit"},
                {"limit=ten", "limit"},
                {"cursor=bm90IGEgY3Vyc29y", "cursor"}
            }) {
                AgentApi.Response refused =
                        api.asHuman("alice", false, "GET", "/api/v1/approvals?status=all&" + bad[0], null);
                assertThat(refused.status()).as(bad[0]).isEqualTo(400);
                assertThat(refused.text("field")).as(bad[0]).isEqualTo(bad[1]);
            }
        } finally {
            parked.forEach(id -> api.post(ACME, "/api/v1/runs/" + id + "/cancel", ""));
        }
    }

    @Autowired
    dev.airlock.gateway.support.MovableClock clock;

    @Test
    void whetherARequestHasExpiredIsJudgedByTheDatabasesClockAsWell() {
        List<String> parked = new java.util.ArrayList<>();
        try {
            // An agent-side replica whose clock runs two hours ahead gives people the policy's hour, no more.
            clock.advance(java.time.Duration.ofHours(2));
            parked.add(api.park(ACME, "deploy", "{\"service\":\"ahead\"}"));
            assertThat(jdbc.sql("SELECT expires_at <= now() + interval '61 minutes' FROM airlock.approval_requests"
                                    + " WHERE run_id = ?::uuid")
                            .param(parked.getLast())
                            .query(Boolean.class)
                            .single())
                    .isTrue();
            clock.reset();

            // A people's-side replica whose clock runs an hour behind does not approve what has expired by the
            // database's clock (nor does its expiry job wait for its own clock).
            String behind = api.park(ACME, "deploy", "{\"service\":\"behind\"}");
            parked.add(behind);
            String digest =
                    request("alice", behind).path("summary").path("digest").asString();
            jdbc.sql("UPDATE airlock.approval_requests SET expires_at = now() - interval '1 second'"
                            + " WHERE run_id = ?::uuid")
                    .param(behind)
                    .update();
            clock.advance(java.time.Duration.ofHours(-1));
            AgentApi.Response late = decide("alice", behind, "APPROVE", "ticket OPS-13", digest);
            assertThat(late.status()).as(late.body().toString()).isEqualTo(409);
            assertThat(late.text("reason")).isIn("EXPIRED", "NOT_PENDING");
            // Nor does the expiry job wait for that replica's clock.
            String unanswered = api.park(ACME, "deploy", "{\"service\":\"unanswered\"}");
            parked.add(unanswered);
            jdbc.sql("UPDATE airlock.approval_requests SET expires_at = now() - interval '1 second'"
                            + " WHERE run_id = ?::uuid")
                    .param(unanswered)
                    .update();
            org.awaitility.Awaitility.await("expired by the job, with the replica's clock an hour behind")
                    .atMost(java.time.Duration.ofSeconds(20))
                    .until(() -> api.get(ACME, "/api/v1/runs/" + unanswered).text("state"), "EXPIRED"::equals);
        } finally {
            clock.reset();
            parked.forEach(id -> api.post(ACME, "/api/v1/runs/" + id + "/cancel", ""));
        }
    }

    @Test
    void aDenialEndsTheRunAndTheAgentSeesIt() {
        String runId = api.park(ACME, "deploy", "{\"service\":\"payments\"}");
        String digest = request("alice", runId).path("summary").path("digest").asString();
        assertThat(decide("alice", runId, "DENY", null, digest).text("reason")).isEqualTo("REASON_REQUIRED");
        assertThat(decide("alice", runId, "DENY", "not during the freeze", digest)
                        .status())
                .isEqualTo(200);
        JsonNode run = api.get(ACME, "/api/v1/runs/" + runId).body();
        assertThat(run.path("state").asString()).isEqualTo("DENIED");
        assertThat(run.path("approval").path("status").asString()).isEqualTo("DENIED");
        assertThat(run.path("approval")
                        .path("decisions")
                        .get(0)
                        .path("decision")
                        .asString())
                .isEqualTo("DENY");
        assertThat(run.path("process").path("startedAt").isNull()).isTrue();
    }

    @Test
    void refusesAWrongDigestAnOutsiderTheAgentsOwnerAndAgents() {
        String runId = api.park(ACME_OTHER, "deploy", "{\"service\":\"search\"}");
        String digest = request("alice", runId).path("summary").path("digest").asString();
        AgentApi.Response wrongDigest = decide("alice", runId, "APPROVE", null, "0".repeat(64));
        assertThat(wrongDigest.status()).isEqualTo(409);
        assertThat(wrongDigest.text("reason")).isEqualTo("DIGEST_MISMATCH");

        AgentApi.Response owner = decide("carol", runId, "APPROVE", null, digest);
        assertThat(owner.status()).isEqualTo(409);
        assertThat(owner.text("reason")).isEqualTo("SELF_APPROVAL");

        AgentApi.Response outsider = api.asHuman(
                "dave",
                "POST",
                "/api/v1/approvals/" + runId + "/decisions",
                "{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}");
        assertThat(outsider.status()).isEqualTo(404);
        assertThat(api.asHuman("dave", false, "GET", "/api/v1/approvals/" + runId, null)
                        .status())
                .isEqualTo(404);

        AgentApi.Response agent = api.post(
                ACME,
                "/api/v1/approvals/" + runId + "/decisions",
                "{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}");
        assertThat(agent.status()).isEqualTo(401);
        assertThat(api.get(ACME, "/api/v1/approvals").status()).isEqualTo(401);

        AgentApi.Response noCsrf = api.asHuman(
                "alice",
                false,
                "POST",
                "/api/v1/approvals/" + runId + "/decisions",
                "{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}");
        assertThat(noCsrf.status()).isEqualTo(403);
        assertThat(api.get(ACME_OTHER, "/api/v1/runs/" + runId).text("state")).isEqualTo("PENDING_APPROVAL");
    }

    @Test
    void concurrentDecisionsAreAppliedOneAfterTheOther() throws Exception {
        String runId = api.park(ACME, "deploy", "{\"service\":\"ledger\"}");
        String digest = request("alice", runId).path("summary").path("digest").asString();
        api.session("alice");
        api.session("bob");
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try (Connection holder = jdbc.dataSource().getConnection()) {
            // The test takes the request's row lock first, so that all three decisions arrive while
            // it is held and are let go together: without their own lock they would not wait here,
            // and would each read the request with no decisions on it.
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement(
                    "SELECT run_id FROM airlock.approval_requests WHERE run_id = ?::uuid FOR UPDATE")) {
                lock.setString(1, runId);
                lock.executeQuery().close();
            }
            List<Future<AgentApi.Response>> decisions = List.of(
                    threads.submit(() -> decide("alice", runId, "APPROVE", null, digest)),
                    threads.submit(() -> decide("bob", runId, "APPROVE", null, digest)),
                    threads.submit(() -> decide("alice", runId, "APPROVE", null, digest)));
            org.awaitility.Awaitility.await("decisions waiting for the request's row lock")
                    .atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> jdbc.sql("""
                            SELECT count(*) FROM pg_stat_activity
                             WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%approval_requests%'
                            """).query(Integer.class).single(), waiting -> waiting == 3);
            assertThat(decisions).noneMatch(Future::isDone);
            assertThat(jdbc.sql("SELECT count(*) FROM airlock.approval_decisions WHERE run_id = ?::uuid")
                            .param(runId)
                            .query(Integer.class)
                            .single())
                    .isZero();
            holder.commit();

            List<Integer> statuses = new java.util.ArrayList<>();
            for (Future<AgentApi.Response> decision : decisions) {
                statuses.add(decision.get(30, TimeUnit.SECONDS).status());
            }
            assertThat(statuses).containsExactlyInAnyOrder(200, 200, 409);
        } finally {
            threads.shutdownNow();
        }
        JsonNode run = api.get(ACME, "/api/v1/runs/" + runId + "?wait=PT20S").body();
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(run.path("approval").path("status").asString()).isEqualTo("APPROVED");
        assertThat(run.path("approval")
                        .path("decisions")
                        .valueStream()
                        .map(d -> d.path("approver").asString())
                        .toList())
                .containsExactlyInAnyOrder("alice", "bob");
    }

    @Test
    void anUnansweredRequestExpires() throws Exception {
        String runId = api.park(ACME, "short-lived", "{}");
        JsonNode run = org.awaitility.Awaitility.await("the request expires")
                .atMost(java.time.Duration.ofSeconds(10))
                .until(
                        () -> api.get(ACME, "/api/v1/runs/" + runId).body(),
                        r -> r.path("state").asString().equals("EXPIRED"));
        assertThat(run.path("approval").path("status").asString()).isEqualTo("EXPIRED");
        assertThat(request("alice", runId).path("summary").path("status").asString())
                .isEqualTo("EXPIRED");
    }

    @Test
    void anActionChangedAfterApprovalDoesNotRun() {
        String runId = api.park(ACME, "deploy", "{\"service\":\"billing\"}");
        String digest = request("alice", runId).path("summary").path("digest").asString();
        jdbc.sql("UPDATE airlock.runs SET argv = '[\"echo\",\"deploying\",\"everything\"]' WHERE id = ?::uuid")
                .param(runId)
                .update();
        decide("alice", runId, "APPROVE", null, digest);
        decide("bob", runId, "APPROVE", null, digest);
        JsonNode run = api.get(ACME, "/api/v1/runs/" + runId + "?wait=PT20S").body();
        assertThat(run.path("state").asString()).isEqualTo("FAILED");
        assertThat(run.path("process").path("failure").asString()).contains("differs from the action humans approved");
    }
}
