package dev.airlock.persistence.retention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.persistence.Fixtures;
import dev.airlock.persistence.artifact.RawArtifactStore;
import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.run.RunState;
import dev.airlock.persistence.scope.DatabaseRole;
import dev.airlock.persistence.scope.DatabaseScope;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The retention SQL on PostgreSQL: each kind of record goes by its own cutoff (raw bytes keeping
 * their digest and sizes, transcripts, decided approvals with their decisions, the oldest audit
 * events, and last the runs nothing links to any longer); a legal hold keeps everything of its
 * run; other tenants are untouched; and one purge at a time runs per tenant.
 */
@SpringBootTest
class RetentionPurgeIntegrationTests {

    /** When the records were made; the tests' purges happen 30 days later. */
    private static final Instant MADE = Instant.parse("2026-10-01T00:00:00Z");

    private static final Instant NOW = MADE.plus(Duration.ofDays(30));
    /** A cutoff that removes nothing: every record is newer. */
    private static final Instant KEEP = MADE.minus(Duration.ofDays(1));
    /** A cutoff that removes every record made at {@link #MADE}. */
    private static final Instant GO = MADE.plus(Duration.ofDays(1));

    @Autowired
    RetentionPurge retention;

    @Autowired
    LegalHolds holds;

    @Autowired
    AuditLog audit;

    @Autowired
    RawArtifactStore artifacts;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    PlatformTransactionManager transactions;

    Fixtures fixtures;
    TransactionTemplate tx;
    String tenant;

    @BeforeEach
    void setUp() {
        fixtures = new Fixtures(jdbc);
        tx = new TransactionTemplate(transactions);
        tenant = fixtures.tenant();
    }

    @Test
    void eachKindOfRecordGoesByItsOwnCutoffAndRunsGoLastWhenNothingLinksToThem() {
        UUID old = completedRun(tenant, MADE, "old output");
        UUID approved = approvedRun(tenant, MADE);
        UUID pending = pendingRun(tenant, MADE);
        UUID recent = completedRun(tenant, NOW.minus(Duration.ofHours(1)), "recent output");
        String digest = artifactDigest(old);

        assertThat(purge(GO, KEEP, KEEP, KEEP)).isEqualTo(new PurgeCounts(1, 0, 0, 0, 0));
        Map<String, Object> artifact = jdbc.sql("SELECT stdout, stderr, sha256, stdout_bytes, stderr_bytes, purged_at"
                        + " FROM restricted.raw_artifacts WHERE run_id = :run")
                .param("run", old)
                .query()
                .singleRow();
        assertThat(artifact.get("stdout")).isNull();
        assertThat(artifact.get("stderr")).isNull();
        assertThat(artifact.get("sha256")).as("the digest stays").isEqualTo(digest);
        assertThat(artifact.get("stdout_bytes")).isEqualTo((long) "old output\n".length());
        assertThat(artifact.get("stderr_bytes")).isEqualTo(0L);
        assertThat(artifact.get("purged_at")).isEqualTo(Timestamp.from(NOW));
        assertThat(artifacts.describe(tenant, recent).orElseThrow().present()).isTrue();

        assertThat(purge(GO, GO, KEEP, KEEP)).isEqualTo(new PurgeCounts(0, 2, 0, 0, 0));
        assertThat(fixtures.count("airlock.transcripts", old)).isZero();
        assertThat(fixtures.count("airlock.transcripts", recent)).isEqualTo(2);

        assertThat(purge(GO, GO, GO, KEEP)).isEqualTo(new PurgeCounts(0, 0, 1, 0, 0));
        assertThat(fixtures.count("airlock.approval_requests", approved)).isZero();
        assertThat(fixtures.count("airlock.approval_decisions", approved)).isZero();
        assertThat(fixtures.count("airlock.approval_requests", pending))
                .as("a pending request stays")
                .isEqualTo(1);

        int eventsBefore = events(tenant);
        PurgeCounts cut = purge(GO, GO, GO, GO);
        // Every event made at MADE goes: the old run's two, the approved run's two and the
        // pending run's one (events 1 to 5); the recent run's are newer, and so are the three
        // retention events written so far.
        assertThat(cut.runs())
                .as("the old and the approved run; the pending one is not over")
                .isEqualTo(2);
        assertThat(cut).isEqualTo(new PurgeCounts(0, 0, 0, 5, 2));
        assertThat(events(tenant)).isEqualTo(eventsBefore - 5 + 1);
        for (UUID gone : List.of(old, approved)) {
            assertThat(fixtures.exists(gone)).isFalse();
            assertThat(fixtures.count("airlock.run_streams", gone)).isZero();
            assertThat(fixtures.count("restricted.raw_artifacts", gone)).isZero();
        }
        assertThat(fixtures.count("restricted.raw_grants", old))
                .as("its grants went with it")
                .isZero();
        assertThat(fixtures.state(pending)).isEqualTo("PENDING_APPROVAL");
        assertThat(fixtures.state(recent)).isEqualTo("COMPLETED");
        AuditLog.Verification verification = tx.execute(status -> audit.verify(tenant));
        assertThat(verification.intact()).as(verification.problem()).isTrue();
        assertThat(lastEvent(tenant))
                .startsWith("retention.purged ")
                .contains(
                        "\"auditChainStart\":\"6/",
                        "\"auditEvents\":\"5\"",
                        "\"runs\":\"2\"",
                        "\"rawArtifacts\":\"0\"");
    }

    @Test
    void anInterruptedRunGoesLikeAnyEndedRunAndItsNotificationDeliveriesWithIt() {
        UUID interrupted = fixtures.run(tenant, RunState.INTERRUPTED, MADE);
        tx.executeWithoutResult(status -> {
            audit.append(tenant, AuditEventType.RUN_REQUESTED, interrupted, "agent:bot", Map.of("tool", "echo"), MADE);
            jdbc.sql("""
                    INSERT INTO airlock.notification_deliveries (tenant, run_id, channel, event, status, attempts,
                                                                 last_error, created_at, updated_at)
                    VALUES (:tenant, :run, 'mail', 'approval.requested', 'FAILED', 3, 'connection refused', :at, :at)
                    """)
                    .param("tenant", tenant)
                    .param("run", interrupted)
                    .param("at", Timestamp.from(MADE))
                    .update();
        });
        UUID recent = completedRun(tenant, NOW.minus(Duration.ofHours(1)), "recent output");

        PurgeCounts purged = purge(GO, GO, GO, GO);
        assertThat(purged.auditEvents()).isEqualTo(1);
        assertThat(purged.runs()).isEqualTo(1);
        assertThat(fixtures.exists(interrupted))
                .as("nothing links to it any more: it goes as a completed run would")
                .isFalse();
        assertThat(fixtures.count("airlock.notification_deliveries", interrupted))
                .isZero();
        assertThat(fixtures.exists(recent)).isTrue();
    }

    @Test
    void aLegalHoldKeepsEverythingOfItsRunUntilItIsReleased() {
        UUID free = completedRun(tenant, MADE, "free");
        UUID held = completedRun(tenant, MADE, "held");
        UUID heldApproval = approvedRun(tenant, MADE);
        assertThat(holds.place(tenant, held, "litigation 7", "amber", MADE.plusSeconds(60)))
                .isTrue();
        assertThat(holds.place(tenant, heldApproval, "litigation 7", "amber", MADE.plusSeconds(60)))
                .isTrue();

        PurgeCounts first = purge(GO, GO, GO, GO);
        assertThat(first.rawArtifacts()).isEqualTo(1);
        assertThat(first.transcripts()).isEqualTo(2);
        assertThat(first.approvals()).isZero();
        assertThat(first.auditEvents())
                .as("the events of the free run, made before the held run's first")
                .isEqualTo(2);
        assertThat(first.runs()).isEqualTo(1);
        assertThat(fixtures.exists(free)).isFalse();
        assertThat(artifacts.describe(tenant, held).orElseThrow().present()).isTrue();
        assertThat(fixtures.count("airlock.transcripts", held)).isEqualTo(2);
        assertThat(fixtures.count("airlock.approval_requests", heldApproval)).isEqualTo(1);
        assertThat(fixtures.count("airlock.approval_decisions", heldApproval)).isEqualTo(1);
        assertThat(fixtures.count("airlock.audit_events", held)).isEqualTo(3);

        assertThat(holds.release(tenant, held, "settled", "amber", NOW)).isTrue();
        assertThat(holds.release(tenant, heldApproval, "settled", "amber", NOW)).isTrue();
        PurgeCounts released = purge(GO, GO, GO, NOW.plusSeconds(1));
        assertThat(released.rawArtifacts()).isEqualTo(1);
        assertThat(released.transcripts()).isEqualTo(2);
        assertThat(released.approvals()).isEqualTo(1);
        assertThat(released.auditEvents())
                .as("all but the newest, now that nothing is held")
                .isEqualTo(8);
        assertThat(released.runs())
                .as("the held run; the other keeps the newest event")
                .isEqualTo(1);
        // The held run's bytes, transcripts and events went, and then the run with what remained.
        assertThat(fixtures.exists(held)).isFalse();
        assertThat(fixtures.count("restricted.raw_artifacts", held)).isZero();
        assertThat(fixtures.count("airlock.run_streams", held)).isZero();
        // The newest event (the second release) is never removed, so its run stays linked.
        assertThat(fixtures.count("airlock.audit_events", heldApproval)).isEqualTo(1);
        assertThat(fixtures.state(heldApproval)).isEqualTo("COMPLETED");
        AuditLog.Verification verification = tx.execute(status -> audit.verify(tenant));
        assertThat(verification.intact()).as(verification.problem()).isTrue();
    }

    @Test
    void anotherTenantsRecordsAreUntouched() {
        String other = fixtures.tenant();
        UUID theirs = completedRun(other, MADE, "theirs");
        UUID approval = approvedRun(other, MADE);
        completedRun(tenant, MADE, "mine");
        int theirEvents = events(other);

        // The tenant's own newest event is never removed, so its run stays linked to it.
        assertThat(purge(GO, GO, GO, GO)).isEqualTo(new PurgeCounts(1, 2, 0, 1, 0));
        assertThat(artifacts.describe(other, theirs).orElseThrow().present()).isTrue();
        assertThat(fixtures.count("airlock.transcripts", theirs)).isEqualTo(2);
        assertThat(fixtures.count("airlock.approval_requests", approval)).isEqualTo(1);
        assertThat(events(other)).isEqualTo(theirEvents);
        assertThat(fixtures.state(theirs)).isEqualTo("COMPLETED");
    }

    @Test
    void oneReplicaAtATimePurgesATenant() throws Exception {
        completedRun(tenant, MADE, "output");
        CountDownLatch purging = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            // One replica's purge is under way: its transaction is still open.
            Future<Optional<PurgeCounts>> first = thread.submit(() -> asConsole(() -> tx.execute(status -> {
                Optional<PurgeCounts> counts = retention.purge(tenant, new RetentionCutoffs(GO, KEEP, KEEP, KEEP), NOW);
                purging.countDown();
                try {
                    finish.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return counts;
            })));
            assertThat(purging.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(asConsole(() -> retention.purge(tenant, new RetentionCutoffs(GO, GO, GO, GO), NOW)))
                    .as("while another purges")
                    .isEmpty();
            String another = fixtures.tenant();
            assertThat(DatabaseScope.of(DatabaseRole.CONSOLE, List.of(another))
                            .call(() -> retention.purge(another, new RetentionCutoffs(GO, GO, GO, GO), NOW)))
                    .as("another tenant meanwhile")
                    .isPresent();
            finish.countDown();
            assertThat(first.get(30, TimeUnit.SECONDS)).contains(new PurgeCounts(1, 0, 0, 0, 0));
        } finally {
            thread.shutdownNow();
        }
        assertThat(asConsole(() -> retention.purge(tenant, new RetentionCutoffs(GO, GO, GO, KEEP), NOW)))
                .contains(new PurgeCounts(0, 2, 0, 0, 0));
    }

    /** Retention runs as the console role, over the tenants of these tests. */
    private <T> T asConsole(Supplier<T> work) {
        return DatabaseScope.of(DatabaseRole.CONSOLE, List.of(tenant)).call(work);
    }

    private PurgeCounts purge(Instant raw, Instant transcripts, Instant approvals, Instant auditEvents) {
        return asConsole(() ->
                        retention.purge(tenant, new RetentionCutoffs(raw, transcripts, approvals, auditEvents), NOW))
                .orElseThrow();
    }

    /**
     * A completed run made at {@code at}: stream facts, both transcripts, its raw artifact, a grant
     * to it, and two audit events (requested, finished).
     */
    private UUID completedRun(String tenant, Instant at, String output) {
        UUID run = fixtures.run(tenant, RunState.COMPLETED, at);
        tx.executeWithoutResult(status -> {
            for (String stream : List.of("stdout", "stderr")) {
                jdbc.sql("""
                        INSERT INTO airlock.run_streams (run_id, stream, observed_bytes, retained_bytes, truncated, eof, sha256,
                                                         removed, redactions)
                        VALUES (:run, :stream, 0, 0, false, true, 'sha', '{}', 0)
                        """).param("run", run).param("stream", stream).update();
                jdbc.sql(
                                "INSERT INTO airlock.transcripts (run_id, stream, text, created_at) VALUES (:run, :stream, :text, :at)")
                        .param("run", run)
                        .param("stream", stream)
                        .param("text", stream.equals("stdout") ? output + "\n" : "")
                        .param("at", Timestamp.from(at))
                        .update();
            }
            artifacts.store(
                    run,
                    tenant,
                    "digest-" + run,
                    (output + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    new byte[0],
                    0,
                    at);
            jdbc.sql("""
                    INSERT INTO restricted.raw_grants (id, tenant, run_id, requester, reason, status, requested_at, expires_at)
                    VALUES (:id, :tenant, :run, 'arthur', 'audit', 'PENDING', :at, :at)
                    """)
                    .param("id", UUID.randomUUID())
                    .param("tenant", tenant)
                    .param("run", run)
                    .param("at", Timestamp.from(at))
                    .update();
            audit.append(tenant, AuditEventType.RUN_REQUESTED, run, "agent:bot", Map.of("tool", "echo"), at);
            audit.append(tenant, AuditEventType.RUN_FINISHED, run, "airlock", Map.of("exitCode", "0"), at);
        });
        return run;
    }

    /** A completed run made at {@code at} whose approval request was approved, with its decision and events. */
    private UUID approvedRun(String tenant, Instant at) {
        UUID run = fixtures.run(tenant, RunState.COMPLETED, at);
        request(tenant, run, "APPROVED", at);
        tx.executeWithoutResult(status -> {
            jdbc.sql("""
                    INSERT INTO airlock.approval_decisions (run_id, approver, decision, digest, decided_at)
                    VALUES (:run, 'alice', 'APPROVE', 'digest', :at)
                    """).param("run", run).param("at", Timestamp.from(at)).update();
            audit.append(
                    tenant, AuditEventType.APPROVAL_DECIDED, run, "human:alice", Map.of("decision", "APPROVE"), at);
        });
        return run;
    }

    /** A run made at {@code at} still waiting for people. */
    private UUID pendingRun(String tenant, Instant at) {
        UUID run = fixtures.run(tenant, RunState.PENDING_APPROVAL, at);
        request(tenant, run, "PENDING", at);
        return run;
    }

    private void request(String tenant, UUID run, String status, Instant at) {
        tx.executeWithoutResult(s -> {
            jdbc.sql("""
                    INSERT INTO airlock.approval_requests (run_id, tenant, tool, agent, action, digest, approvers_required, status,
                                                           created_at, expires_at, closed_at)
                    VALUES (:run, :tenant, 'echo', 'bot', 'tool: echo', encode(sha256('tool: echo'::bytea), 'hex'), 1, :status, :at, :expires, :closed)
                    """)
                    .param("run", run)
                    .param("tenant", tenant)
                    .param("status", status)
                    .param("at", Timestamp.from(at))
                    .param("expires", Timestamp.from(at.plus(Duration.ofHours(1))))
                    .param("closed", status.equals("PENDING") ? null : Timestamp.from(at))
                    .update();
            audit.append(tenant, AuditEventType.APPROVAL_REQUESTED, run, "airlock", Map.of("digest", "digest"), at);
        });
    }

    private String artifactDigest(UUID run) {
        return artifacts.digest(run).orElseThrow();
    }

    private int events(String tenant) {
        return jdbc.sql("SELECT count(*) FROM airlock.audit_events WHERE tenant = :tenant")
                .param("tenant", tenant)
                .query(Integer.class)
                .single();
    }

    private String lastEvent(String tenant) {
        return jdbc.sql(
                        "SELECT type || ' ' || details FROM airlock.audit_events WHERE tenant = :tenant ORDER BY seq DESC LIMIT 1")
                .param("tenant", tenant)
                .query(String.class)
                .single();
    }
}
