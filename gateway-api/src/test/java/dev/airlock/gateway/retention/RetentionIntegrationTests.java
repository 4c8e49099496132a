package dev.airlock.gateway.retention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.approval.retention.RetentionJob;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.MovableClock;
import dev.airlock.persistence.retention.PurgeCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;

/**
 * Retention of tenant {@code archive} (raw P1D, transcripts P3D, approvals P5D, audit events
 * P10D) with the clock moved forward: raw bytes go first and leave their digest, then
 * transcripts, then approvals, then the oldest audit events and the runs nothing links to any
 * longer; a legal hold keeps everything of its run; the audit chain still verifies.
 */
@AirlockIntegrationTest
class RetentionIntegrationTests {

    private static final String KEY = "archive-bot-key";

    @Autowired
    MockMvcTester mvc;

    @Autowired
    MovableClock clock;

    @Autowired
    RetentionJob retention;

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase jdbc;

    @AfterEach
    void resetClock() {
        clock.reset();
    }

    private AgentApi.Response audit(String method, String path, String body) {
        return new AgentApi(mvc).asHuman("arthur", method, path, body);
    }

    private JsonNode report(String runId) {
        return audit("GET", "/api/v1/audit/runs/" + runId + "?tenant=archive", null)
                .body();
    }

    /** The cut-off {@code key} of a retention.purged event's details. */
    private static Instant before(String details, String key) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("\"" + key + "\":\"([^\"]+)\"").matcher(details);
        assertThat(m.find()).as(key + " in " + details).isTrue();
        return Instant.parse(m.group(1));
    }

    private PurgeCounts purgeAfter(Duration sinceStart) {
        clock.reset();
        clock.advance(sinceStart);
        return retention.purge("archive").orElseThrow();
    }

    @Test
    void recordsGoWhenTheirPeriodsEndExceptUnderALegalHold() {
        AgentApi api = new AgentApi(mvc);
        String plain = api.run(KEY, "echo", "{\"message\":\"first\"}").text("runId");
        String held = api.run(KEY, "echo", "{\"message\":\"held\"}").text("runId");
        AgentApi.Response hold = api.asHuman(
                "amber",
                "PUT",
                "/api/v1/audit/runs/" + held + "/legal-hold?tenant=archive",
                "{\"reason\":\"litigation 7\"}");
        assertThat(hold.status()).isEqualTo(201);
        assertThat(hold.text("placedBy")).isEqualTo("amber");
        String approved = api.post(KEY, "/api/v1/runs", "{\"tool\":\"release\",\"arguments\":{\"note\":\"v1\"}}")
                .text("runId");
        String digest = api.asHuman("ann", false, "GET", "/api/v1/approvals/" + approved, null)
                .body()
                .path("summary")
                .path("digest")
                .asString();
        api.asHuman(
                "ann",
                "POST",
                "/api/v1/approvals/" + approved + "/decisions",
                "{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}");
        assertThat(api.get(KEY, "/api/v1/runs/" + approved + "?wait=PT20S").text("state"))
                .isEqualTo("COMPLETED");
        String artifactSha = report(plain)
                .path("observations")
                .path("rawArtifact")
                .path("sha256")
                .asString();

        assertThat(purgeAfter(Duration.ofHours(12))).isEqualTo(new PurgeCounts(0, 0, 0, 0, 0));
        assertThat(jdbc.sql(
                                "SELECT details FROM airlock.audit_events WHERE tenant = 'archive' AND type = 'retention.purged'")
                        .query(String.class)
                        .list())
                .as("a purge that removed nothing is recorded too, with how far it was allowed to reach")
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("{\"approvals\":\"0\",\"approvalsBefore\":")
                .contains("\"auditEvents\":\"0\",\"auditEventsBefore\":", "\"rawArtifacts\":\"0\",\"rawBefore\":")
                .contains("\"runs\":\"0\",\"transcripts\":\"0\",\"transcriptsBefore\":")
                .satisfies(details -> {
                    // archive keeps raw bytes 1 day, transcripts 3, approvals 5, audit events 10
                    Instant raw = before(details, "rawBefore");
                    assertThat(Duration.between(before(details, "transcriptsBefore"), raw))
                            .isEqualTo(Duration.ofDays(2));
                    assertThat(Duration.between(before(details, "approvalsBefore"), raw))
                            .isEqualTo(Duration.ofDays(4));
                    assertThat(Duration.between(before(details, "auditEventsBefore"), raw))
                            .isEqualTo(Duration.ofDays(9));
                });

        assertThat(purgeAfter(Duration.ofDays(2))).isEqualTo(new PurgeCounts(2, 0, 0, 0, 0));
        JsonNode raw = report(plain).path("observations").path("rawArtifact");
        assertThat(raw.path("present").asBoolean()).isFalse();
        assertThat(raw.path("sha256").asString()).isEqualTo(artifactSha);
        assertThat(raw.path("stdoutBytes").asLong()).isEqualTo("first\n".length());
        assertThat(raw.path("purgedAt").isNull()).isFalse();
        assertThat(report(plain)
                        .path("observations")
                        .path("transcriptExcerpt")
                        .path("stdout")
                        .asString())
                .contains("| first");
        assertThat(report(held)
                        .path("observations")
                        .path("rawArtifact")
                        .path("present")
                        .asBoolean())
                .isTrue();
        AgentApi.Response gone =
                audit("POST", "/api/v1/audit/runs/" + plain + "/raw-grants?tenant=archive", "{\"reason\":\"late\"}");
        assertThat(gone.status()).isEqualTo(410);
        assertThat(gone.text("reason")).isEqualTo("PURGED");

        assertThat(purgeAfter(Duration.ofDays(4))).isEqualTo(new PurgeCounts(0, 4, 0, 0, 0));
        assertThat(report(plain).path("observations").path("transcriptExcerpt").size())
                .isZero();
        assertThat(report(held)
                        .path("observations")
                        .path("transcriptExcerpt")
                        .path("stdout")
                        .asString())
                .contains("| held");
        assertThat(report(approved)
                        .path("authorization")
                        .path("approval")
                        .path("status")
                        .asString())
                .isEqualTo("APPROVED");

        assertThat(purgeAfter(Duration.ofDays(6))).isEqualTo(new PurgeCounts(0, 0, 1, 0, 0));
        assertThat(report(approved).path("authorization").path("approval").isNull())
                .isTrue();
        assertThat(report(approved).path("authorization").path("decisions").size())
                .isZero();

        PurgeCounts audited = purgeAfter(Duration.ofDays(11));
        assertThat(audited.auditEvents())
                .as("events before the held run's first one")
                .isPositive();
        assertThat(audited.runs()).isEqualTo(1);
        assertThat(audit("GET", "/api/v1/audit/runs/" + plain + "?tenant=archive", null)
                        .status())
                .isEqualTo(404);
        assertThat(report(approved).path("runId").asString())
                .as("its audit events remain")
                .isEqualTo(approved);
        assertThat(audit("GET", "/api/v1/audit/runs/" + held + "/events?tenant=archive", null)
                        .body()
                        .valueStream()
                        .map(e -> e.path("type").asString())
                        .toList())
                .startsWith("run.requested")
                .contains("legal-hold.placed");
        JsonNode verification =
                audit("GET", "/api/v1/audit/verify?tenant=archive", null).body();
        assertThat(verification.path("intact").asBoolean())
                .as(verification.toString())
                .isTrue();

        assertThat(api.asHuman(
                                "amber",
                                "DELETE",
                                "/api/v1/audit/runs/" + held + "/legal-hold?tenant=archive&reason=settled",
                                null)
                        .status())
                .isEqualTo(204);
        PurgeCounts released = purgeAfter(Duration.ofDays(11));
        assertThat(released.rawArtifacts()).isEqualTo(1);
        assertThat(released.transcripts()).isEqualTo(2);
        assertThat(released.runs())
                .as("the approved run; the held one keeps its release event")
                .isEqualTo(1);
        assertThat(audit("GET", "/api/v1/audit/runs/" + approved + "?tenant=archive", null)
                        .status())
                .isEqualTo(404);
        assertThat(audit("GET", "/api/v1/audit/runs/" + held + "/events?tenant=archive", null)
                        .body()
                        .valueStream()
                        .map(e -> e.path("type").asString())
                        .toList())
                .containsExactly("legal-hold.released");
        verification = audit("GET", "/api/v1/audit/verify?tenant=archive", null).body();
        assertThat(verification.path("intact").asBoolean())
                .as(verification.toString())
                .isTrue();

        List<String> purges = jdbc.sql("SELECT details FROM airlock.audit_events WHERE tenant = 'archive'"
                        + " AND type = 'retention.purged' ORDER BY seq")
                .query(String.class)
                .list();
        // One event for each of the six purges; the first (12 hours, nothing removed) has itself
        // gone with the oldest events since.
        assertThat(purges).hasSize(5);
        assertThat(purges.getFirst())
                .contains(
                        "\"approvals\":\"0\"",
                        "\"auditEvents\":\"0\"",
                        "\"rawArtifacts\":\"2\"",
                        "\"runs\":\"0\"",
                        "\"transcripts\":\"0\"",
                        "\"auditEventsBefore\":");
        assertThat(purges.getLast())
                .contains("\"rawArtifacts\":\"1\"", "\"runs\":\"1\"", "\"transcripts\":\"2\"", "\"auditChainStart\":");
    }

    @Test
    void aCutChainWithoutItsRetentionEventDoesNotVerify() {
        new AgentApi(mvc).run(KEY, "echo", "{\"message\":\"cut\"}");
        // A chain start just before the newest event, with no retention event to confirm it: later
        // than any start a purge may have recorded, so it is the one verification uses.
        long newest = jdbc.sql("SELECT max(seq) FROM airlock.audit_events WHERE tenant = 'archive'")
                .query(Long.class)
                .single();
        jdbc.sql(
                        "INSERT INTO airlock.audit_chain_starts (tenant, first_seq, prev_hash, recorded_at) "
                                + "SELECT tenant, seq + 1, hash, now() FROM airlock.audit_events WHERE tenant = 'archive' AND seq = :seq")
                .param("seq", newest - 1)
                .update();
        try {
            JsonNode verification =
                    audit("GET", "/api/v1/audit/verify?tenant=archive", null).body();
            assertThat(verification.path("intact").asBoolean()).isFalse();
            assertThat(verification.path("problem").asString())
                    .isEqualTo("the chain starts at event " + newest + " but no retention event records that cut");
        } finally {
            jdbc.sql("ALTER TABLE airlock.audit_chain_starts DISABLE TRIGGER audit_chain_starts_append_only")
                    .update();
            jdbc.sql("DELETE FROM airlock.audit_chain_starts WHERE tenant = 'archive' AND first_seq = :seq")
                    .param("seq", newest)
                    .update();
            jdbc.sql("ALTER TABLE airlock.audit_chain_starts ENABLE TRIGGER audit_chain_starts_append_only")
                    .update();
        }
    }
}
