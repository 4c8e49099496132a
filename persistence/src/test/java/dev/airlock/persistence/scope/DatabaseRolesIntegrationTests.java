package dev.airlock.persistence.scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.persistence.Fixtures;
import dev.airlock.persistence.artifact.RawArtifactStore;
import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.run.RunState;
import dev.airlock.persistence.run.StreamName;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Each role of docs/database.md, as the application works as it (the scope's {@code SET LOCAL
 * ROLE} and tenants at the start of a transaction), tries what it must not do; PostgreSQL
 * refuses with a permission error (SQLSTATE 42501) or, for another tenant's rows, shows none. The
 * fixtures are written as the superuser, outside any scope.
 */
@SpringBootTest
class DatabaseRolesIntegrationTests {

    private static final String DENIED = "42501";
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    @Autowired
    JdbcClient jdbc;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    RawArtifactStore artifacts;

    @Autowired
    AuditLog audit;

    @Autowired
    dev.airlock.persistence.run.RunWrites writes;

    @Autowired
    dev.airlock.persistence.retention.LegalHolds holds;

    Fixtures fixtures;
    TransactionTemplate tx;
    String tenant;
    String other;
    UUID completed;
    UUID pending;
    UUID othersRun;

    @BeforeEach
    void setUp() {
        fixtures = new Fixtures(jdbc);
        tx = new TransactionTemplate(transactions);
        tenant = fixtures.tenant();
        other = fixtures.tenant();
        completed = completedRun(tenant);
        pending = fixtures.run(tenant, RunState.PENDING_APPROVAL, NOW);
        request(pending, "PENDING");
        othersRun = completedRun(other);
    }

    // ---- the gateway (agent side) ----

    @Test
    void theGatewayCannotRecordADecision() {
        assertRefused(
                DatabaseRole.GATEWAY,
                "INSERT INTO airlock.approval_decisions (run_id, approver, decision, digest, decided_at)" + " VALUES ('"
                        + pending + "', 'mallory', 'APPROVE', 'digest', now())");
    }

    @Test
    void theGatewayCannotApproveARequestNorChangeWhatWasAsked() {
        assertRefused(
                DatabaseRole.GATEWAY,
                "UPDATE airlock.approval_requests SET status = 'APPROVED', closed_at = now()" + " WHERE run_id = '"
                        + pending + "'");
        assertRefused(
                DatabaseRole.GATEWAY,
                "UPDATE airlock.approval_requests SET approvers_required = 1, digest = 'other'" + " WHERE run_id = '"
                        + pending + "'");
    }

    @Test
    void theGatewayCannotOpenARequestThatIsAlreadyApproved() {
        UUID run = fixtures.run(tenant, RunState.PENDING_APPROVAL, NOW);
        assertRefused(
                DatabaseRole.GATEWAY,
                "INSERT INTO airlock.approval_requests (run_id, tenant, tool, agent, action, digest,"
                        + " approvers_required, status, created_at, expires_at, closed_at) VALUES ('" + run + "', '"
                        + tenant
                        + "', 'echo', 'bot', 'a', encode(sha256('a'::bytea), 'hex'), 1, 'APPROVED', now(), now() + interval '1 hour', now())");
    }

    @Test
    void neitherSideOpensARequestWhoseDigestIsNotTheActionsItShows() {
        // What people read is the action; what their approval binds is the digest: the two are one.
        UUID run = fixtures.run(tenant, RunState.PENDING_APPROVAL, NOW);
        assertThatThrownBy(() -> as(
                        DatabaseRole.GATEWAY,
                        tenant,
                        () -> jdbc.sql("INSERT INTO airlock.approval_requests (run_id, tenant, tool, agent, action,"
                                        + " digest, approvers_required, status, created_at, expires_at) VALUES ('"
                                        + run + "', '" + tenant + "', 'echo', 'bot', 'tool: echo',"
                                        + " encode(sha256('tool: rm -rf /'::bytea), 'hex'), 1, 'PENDING', now(),"
                                        + " now() + interval '1 hour')")
                                .update()))
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo("23514"))
                .hasStackTraceContaining("approval_requests_digest_is_the_actions");
    }

    @Test
    void theGatewayMayCancelAPendingRequestButNotReopenAClosedOne() {
        Integer cancelled = as(
                DatabaseRole.GATEWAY,
                tenant,
                () -> jdbc.sql(
                                "UPDATE airlock.approval_requests SET status = 'CANCELLED', closed_at = now() WHERE run_id = :run")
                        .param("run", pending)
                        .update());
        assertThat(cancelled).isOne();
        Integer reopened = as(
                DatabaseRole.GATEWAY,
                tenant,
                () -> jdbc.sql(
                                "UPDATE airlock.approval_requests SET status = 'PENDING', closed_at = NULL WHERE run_id = :run")
                        .param("run", pending)
                        .update());
        assertThat(reopened)
                .as("a closed request is invisible to the gateway's updates")
                .isZero();
        assertThat(jdbc.sql("SELECT status FROM airlock.approval_requests WHERE run_id = :run")
                        .param("run", pending)
                        .query(String.class)
                        .single())
                .isEqualTo("CANCELLED");
    }

    @Test
    void theGatewayCannotApproveARunItselfNorRewriteWhatARunExecutes() {
        UUID run = fixtures.run(tenant, RunState.PENDING_APPROVAL, NOW);
        assertRefused(DatabaseRole.GATEWAY, "UPDATE airlock.runs SET state = 'APPROVED' WHERE id = '" + run + "'");
        assertRefused(DatabaseRole.GATEWAY, "UPDATE airlock.runs SET argv = '[\"rm\"]' WHERE id = '" + run + "'");
        assertRefused(
                DatabaseRole.GATEWAY, "UPDATE airlock.runs SET approval_required = false WHERE id = '" + run + "'");
        for (String state : new String[] {"'APPROVED', true", "'PENDING_APPROVAL', false"}) {
            assertRefused(
                    DatabaseRole.GATEWAY,
                    "INSERT INTO airlock.runs (id, tenant, agent, tool, tool_snapshot_id, arguments,"
                            + " argv, request_sha256, state, approval_required, created_at, updated_at) SELECT gen_random_uuid(), tenant,"
                            + " agent, tool, tool_snapshot_id, arguments, argv, request_sha256, " + state
                            + ", now(), now()"
                            + " FROM airlock.runs WHERE id = '" + run + "'");
        }
    }

    @Test
    void eachSideAppendsOnlyItsOwnKindsOfAuditEvents() {
        // At the head, so that only the kind of event is wrong (the head trigger refuses anything else first).
        assertRefusedByPolicy(DatabaseRole.GATEWAY, atHead(tenant, "approval.decided", "human:alice"));
        assertRefusedByPolicy(DatabaseRole.CONSOLE, atHead(tenant, "run.finished", "airlock"));
    }

    /** An audit event of {@code eventTenant} at its head: the next seq, after the head's hash. */
    private String atHead(String eventTenant, String type, String actor) {
        AuditLog.Head head = audit.head(eventTenant).orElseThrow();
        return "INSERT INTO airlock.audit_events (tenant, seq, type, actor, details, occurred_at, prev_hash, hash)"
                + " VALUES ('" + eventTenant + "', " + (head.seq() + 1) + ", '" + type + "', '" + actor
                + "', '{}', now(), '" + head.hash() + "', 'b')";
    }

    /** Refused by a row-level security policy (not by a trigger, which shares its SQLSTATE). */
    private void assertRefusedByPolicy(DatabaseRole role, String statement) {
        assertThatThrownBy(() -> as(
                        role,
                        tenant,
                        () -> jdbc.sql(statement).query((rs, n) -> 1).list()))
                .as("%s: %s", role.roleName(), statement)
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED))
                .hasStackTraceContaining("row-level security policy");
    }

    @Test
    void neitherSideAppendsAnAuditEventAnywhereButAtItsTenantsHead() {
        AuditLog.Head head = audit.head(tenant).orElseThrow();
        for (DatabaseRole role : List.of(DatabaseRole.GATEWAY, DatabaseRole.CONSOLE)) {
            String type = role == DatabaseRole.GATEWAY ? "config.changed" : "legal-hold.placed";
            for (String seqAndPrev : List.of(
                    // at the head, after another hash
                    (head.seq() + 1) + ", 'x'",
                    // past the head: every later append of the tenant would collide with it
                    "9223372036854775807, '" + head.hash() + "'",
                    (head.seq() + 5) + ", '" + head.hash() + "'",
                    // below the chain, where no verification walks
                    "0, '" + head.hash() + "'",
                    "-7, '" + AuditLog.GENESIS + "'")) {
                assertRefused(
                        role,
                        "INSERT INTO airlock.audit_events (tenant, seq, prev_hash, type, actor, details,"
                                + " occurred_at, hash) VALUES ('" + tenant + "', " + seqAndPrev + ", '" + type
                                + "', 'airlock', '{}', now(), 'planted')");
            }
        }
        assertThat(audit.head(tenant)).contains(head);
        // The application's own appends, from either side, go on at the head.
        as(
                DatabaseRole.GATEWAY,
                tenant,
                () -> audit.append(tenant, AuditEventType.CONFIG_CHANGED, null, "airlock", Map.of("tools", "1"), NOW));
        as(DatabaseRole.CONSOLE, tenant, () -> holds.place(tenant, completed, "litigation 9", "amber", NOW));
        assertThat(audit.head(tenant).orElseThrow().seq()).isEqualTo(head.seq() + 2);
        assertThat(audit.verify(tenant).intact()).isTrue();
        // A tenant's first event starts its chain, and nowhere else.
        String fresh = fixtures.tenant();
        assertRefused(
                DatabaseRole.GATEWAY,
                "INSERT INTO airlock.audit_events (tenant, seq, type, actor, details, occurred_at, prev_hash, hash)"
                        + " VALUES ('" + fresh + "', 2, 'config.changed', 'airlock', '{}', now(), '"
                        + AuditLog.GENESIS + "', 'planted')",
                fresh);
        as(
                DatabaseRole.GATEWAY,
                fresh,
                () -> audit.append(fresh, AuditEventType.CONFIG_CHANGED, null, "airlock", Map.of("tools", "1"), NOW));
        assertThat(audit.verify(fresh).intact()).isTrue();
    }

    @Test
    void theConsoleCannotCutAnotherTenantsAuditLogNorReadAnotherTenantsBytesWithItsOwnGrant() {
        assertThatThrownBy(() -> as(
                        DatabaseRole.CONSOLE,
                        other,
                        () -> jdbc.sql("SELECT airlock.remove_oldest_audit_events(:tenant, 1, now())")
                                .param("tenant", tenant)
                                .query(Integer.class)
                                .single()))
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
        // A grant of this tenant naming another tenant's run opens nothing, even where the
        // foreign key that refuses such a grant is out of the way (the owner, replicating).
        UUID crossed = UUID.randomUUID();
        tx.executeWithoutResult(status -> {
            jdbc.sql("SET LOCAL session_replication_role = replica").update();
            jdbc.sql(
                            "INSERT INTO restricted.raw_grants (id, tenant, run_id, requester, requester_identity, reason, status,"
                                    + " requested_at, decided_at, expires_at) VALUES (:id, :tenant, :run, 'arthur', 'password:arthur',"
                                    + " 'audit', 'GRANTED', now(), now(), now() + interval '1 hour')")
                    .param("id", crossed)
                    .param("tenant", tenant)
                    .param("run", othersRun)
                    .update();
        });
        assertThat(as(
                        DatabaseRole.CONSOLE,
                        tenant,
                        () -> artifacts.read(crossed, "arthur", "password:arthur", StreamName.STDOUT, 0, 1000)))
                .as("no bytes of the other tenant's artifact")
                .isEmpty();
    }

    @Test
    void theConsoleCannotCutTheAuditLogPastARunUnderLegalHoldNorItsNewestEvent() {
        long heldFirst = jdbc.sql("SELECT min(seq) FROM airlock.audit_events WHERE run_id = :run")
                .param("run", completed)
                .query(Long.class)
                .single();
        tx.executeWithoutResult(status -> holds.place(tenant, completed, "litigation 7", "amber", NOW));
        assertRefused(
                DatabaseRole.CONSOLE,
                "SELECT airlock.remove_oldest_audit_events('" + tenant + "', " + heldFirst + ", now())");
        tx.executeWithoutResult(status -> holds.release(tenant, completed, "settled", "amber", NOW));
        long newest = jdbc.sql("SELECT max(seq) FROM airlock.audit_events WHERE tenant = :tenant")
                .param("tenant", tenant)
                .query(Long.class)
                .single();
        assertThatThrownBy(() -> as(
                        DatabaseRole.CONSOLE,
                        tenant,
                        () -> jdbc.sql("SELECT airlock.remove_oldest_audit_events(:tenant, :seq, now())")
                                .param("tenant", tenant)
                                .param("seq", newest)
                                .query(Integer.class)
                                .single()))
                .hasStackTraceContaining("is never removed");
        assertThat(as(
                        DatabaseRole.CONSOLE,
                        tenant,
                        () -> jdbc.sql("SELECT airlock.remove_oldest_audit_events(:tenant, :seq, now())")
                                .param("tenant", tenant)
                                .param("seq", newest - 1)
                                .query(Integer.class)
                                .single()))
                .as("once released, everything but the newest event may go")
                .isPositive();
    }

    @Test
    void theGatewayCanTellARunHiddenByItsScopeFromARunThatIsGone() {
        assertThat(as(
                        DatabaseRole.GATEWAY,
                        tenant,
                        () -> jdbc.sql("SELECT count(*) FROM airlock.runs WHERE id = :id")
                                .param("id", othersRun)
                                .query(Integer.class)
                                .single()))
                .as("another tenant's run is hidden")
                .isZero();
        assertThat(as(DatabaseRole.GATEWAY, tenant, () -> writes.isRecorded(othersRun)))
                .isTrue();
        assertThat(as(DatabaseRole.GATEWAY, tenant, () -> writes.isRecorded(UUID.randomUUID())))
                .isFalse();
    }

    @Test
    void noSideFilesARequestAnArtifactAGrantOrAHoldUnderAnotherTenantThanItsRuns() {
        // Both tenants in scope, so row-level security lets the row through and the key must stop it.
        List<String> both = List.of(tenant, other);
        assertForeignKeyRefuses(
                DatabaseRole.GATEWAY,
                both,
                "INSERT INTO airlock.approval_requests (run_id, tenant, tool, agent,"
                        + " action, digest, approvers_required, status, created_at, expires_at) VALUES ('" + othersRun
                        + "', '" + tenant
                        + "', 'echo', 'bot', 'tool: echo', encode(sha256('tool: echo'::bytea), 'hex'), 1, 'PENDING', now(), now() + interval '1 hour')");
        assertForeignKeyRefuses(
                DatabaseRole.GATEWAY,
                both,
                "INSERT INTO restricted.raw_artifacts (run_id, tenant, sha256,"
                        + " stdout, stderr, stdout_bytes, stderr_bytes, created_at) VALUES ('" + pending + "', '"
                        + other
                        + "', 'd', '\\x00', '\\x00', 1, 1, now())");
        assertForeignKeyRefuses(
                DatabaseRole.CONSOLE,
                both,
                "INSERT INTO restricted.raw_grants (id, tenant, run_id, requester,"
                        + " reason, status, requested_at, expires_at) VALUES (gen_random_uuid(), '" + tenant + "', '"
                        + othersRun
                        + "', 'arthur', 'audit', 'PENDING', now(), now() + interval '1 hour')");
        assertForeignKeyRefuses(
                DatabaseRole.CONSOLE,
                both,
                "INSERT INTO airlock.legal_holds (run_id, tenant, reason, placed_by," + " placed_at) VALUES ('"
                        + othersRun + "', '" + tenant + "', 'x', 'arthur', now())");
        // An event about a run is checked when its transaction commits.
        AuditLog.Head head = audit.head(tenant).orElseThrow();
        assertForeignKeyRefuses(
                DatabaseRole.GATEWAY,
                both,
                "INSERT INTO airlock.audit_events (tenant, seq, type, run_id, actor,"
                        + " details, occurred_at, prev_hash, hash) VALUES ('" + tenant + "', " + (head.seq() + 1)
                        + ", 'run.finished', '" + othersRun
                        + "', 'airlock', '{}', now(), '" + head.hash() + "', 'b')");
    }

    private void assertForeignKeyRefuses(DatabaseRole role, List<String> scopeTenants, String statement) {
        assertThatThrownBy(() -> DatabaseScope.of(role, scopeTenants)
                        .call(() -> tx.execute(status -> jdbc.sql(statement).update())))
                .as("%s: %s", role.roleName(), statement)
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo("23503"));
    }

    @Test
    void theGatewayCannotTouchGrantsHoldsOrRawBytes() {
        assertRefused(
                DatabaseRole.GATEWAY,
                "INSERT INTO restricted.raw_grants (id, tenant, run_id, requester, reason, status,"
                        + " requested_at, decided_at, expires_at) VALUES (gen_random_uuid(), '" + tenant + "', '"
                        + completed
                        + "', 'agent', 'x', 'GRANTED', now(), now(), now() + interval '1 day')");
        assertRefused(
                DatabaseRole.GATEWAY,
                "INSERT INTO airlock.legal_holds (run_id, tenant, reason, placed_by, placed_at)" + " VALUES ('"
                        + completed + "', '" + tenant + "', 'x', 'agent', now())");
        assertRefused(
                DatabaseRole.GATEWAY, "SELECT stdout FROM restricted.raw_artifacts WHERE run_id = '" + completed + "'");
        assertRefused(
                DatabaseRole.GATEWAY,
                "SELECT * FROM restricted.read_raw(gen_random_uuid(), 'agent', 'agent', 'stdout', 0, 10)");
        assertRefused(DatabaseRole.GATEWAY, "SELECT * FROM airlock.access_tokens");
    }

    // ---- the console (human side) ----

    @Test
    void theConsoleCannotChangeARunsResultATranscriptOrARawArtifact() {
        assertRefused(
                DatabaseRole.CONSOLE,
                "UPDATE airlock.runs SET exit_code = 0, state = 'COMPLETED' WHERE id = '" + completed + "'");
        assertRefused(
                DatabaseRole.CONSOLE,
                "INSERT INTO airlock.runs (id, tenant, agent, tool, tool_snapshot_id, arguments, argv,"
                        + " request_sha256, state, approval_required, created_at, updated_at) SELECT gen_random_uuid(), tenant, agent,"
                        + " tool, tool_snapshot_id, arguments, argv, request_sha256, 'COMPLETED', false, now(), now()"
                        + " FROM airlock.runs WHERE id = '" + completed + "'");
        assertRefused(
                DatabaseRole.CONSOLE,
                "UPDATE airlock.transcripts SET text = 'forged' WHERE run_id = '" + completed + "'");
        assertRefused(DatabaseRole.CONSOLE, "DELETE FROM airlock.transcripts WHERE run_id = '" + completed + "'");
        assertRefused(
                DatabaseRole.CONSOLE,
                "UPDATE restricted.raw_artifacts SET stdout = 'forged' WHERE run_id = '" + completed + "'");
        assertRefused(
                DatabaseRole.CONSOLE,
                "UPDATE airlock.run_streams SET sha256 = 'forged' WHERE run_id = '" + completed + "'");
    }

    @Test
    void theConsoleReadsRawBytesOnlyThroughAGrantWhichIsRecorded() {
        assertRefused(
                DatabaseRole.CONSOLE, "SELECT stdout FROM restricted.raw_artifacts WHERE run_id = '" + completed + "'");
        UUID refused = grant(completed, "arthur", "PENDING", NOW.plusSeconds(3600));
        assertThatThrownBy(() -> read(refused, "arthur"))
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
        UUID lapsed = grant(completed, "arthur", "GRANTED", Instant.now().minusSeconds(1));
        assertThatThrownBy(() -> read(lapsed, "arthur"))
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
        UUID granted = grant(completed, "arthur", "GRANTED", Instant.now().plusSeconds(3600));
        assertThatThrownBy(() -> read(granted, "mallory"))
                .as("someone else's grant")
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
        assertThatThrownBy(() -> as(
                        DatabaseRole.CONSOLE,
                        tenant,
                        () -> artifacts.read(granted, "arthur", "oidc:sso:arthur", StreamName.STDOUT, 0, 1000)))
                .as("another person who shares the requester's name")
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
        UUID unidentified =
                grant(completed, "arthur", null, "GRANTED", Instant.now().plusSeconds(3600));
        assertThatThrownBy(() -> read(unidentified, "arthur"))
                .as("a grant recorded without its requester's identity")
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
        assertThat(jdbc.sql("SELECT count(*) FROM restricted.raw_reads WHERE grant_id IN (:grants)")
                        .param("grants", List.of(refused, lapsed, granted, unidentified))
                        .query(Integer.class)
                        .single())
                .as("refused reads leave no trace but the refusal")
                .isZero();

        RawArtifactStore.StoredBytes bytes = read(granted, "arthur");

        assertThat(new String(bytes.bytes(), StandardCharsets.UTF_8)).isEqualTo("output");
        assertThat(bytes.actualSha256()).hasSize(64);
        assertThat(jdbc.sql(
                                "SELECT reader || ' ' || reader_identity || ' ' || stream || ' ' || bytes FROM restricted.raw_reads"
                                        + " WHERE grant_id = :grant")
                        .param("grant", granted)
                        .query(String.class)
                        .list())
                .containsExactly("arthur password:arthur stdout 6");
        assertThatThrownBy(() -> as(
                        DatabaseRole.CONSOLE,
                        tenant,
                        () -> jdbc.sql("SELECT * FROM restricted.read_raw(:grant, 'arthur', 'stdout', 0, 10)")
                                .param("grant", granted)
                                .query((rs, n) -> 1)
                                .list()))
                .as("the reading by name alone, left for consoles older than the database")
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED))
                .rootCause()
                .hasMessageContaining("upgrade it");
    }

    @Test
    void theConsoleDecidesAGrantButNeverChangesWhoAskedNorDecidesItUnderTheirIdentity() {
        UUID asked = grant(completed, "arthur", "PENDING", NOW.plusSeconds(3600));
        for (String change : List.of(
                "requester_identity = 'password:mallory'", "requester = 'mallory'", "run_id = gen_random_uuid()")) {
            assertRefused(
                    DatabaseRole.CONSOLE, "UPDATE restricted.raw_grants SET " + change + " WHERE id = '" + asked + "'");
        }
        assertThatThrownBy(() -> as(
                        DatabaseRole.CONSOLE,
                        tenant,
                        () -> jdbc.sql("UPDATE restricted.raw_grants SET status = 'GRANTED', decided_by = 'arthur-2',"
                                        + " decided_by_identity = 'password:arthur' WHERE id = :id")
                                .param("id", asked)
                                .update()))
                .as("the requester's identity under another name")
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo("23514"));
        assertThatThrownBy(() -> as(
                        DatabaseRole.CONSOLE,
                        tenant,
                        () -> jdbc.sql("UPDATE restricted.raw_grants SET status = 'GRANTED', decided_by = 'erin'"
                                        + " WHERE id = :id")
                                .param("id", asked)
                                .update()))
                .as("a decision without the decider's identity")
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo("23514"));
        assertThat(as(
                        DatabaseRole.CONSOLE,
                        tenant,
                        () -> jdbc.sql("UPDATE restricted.raw_grants SET status = 'GRANTED', decided_by = 'erin',"
                                        + " decided_by_identity = 'password:erin', decided_at = now() WHERE id = :id")
                                .param("id", asked)
                                .update()))
                .isEqualTo(1);
    }

    @Test
    void oneIdentityDecidesARunOnceUnderWhateverName() {
        jdbc.sql(
                        "INSERT INTO airlock.approval_decisions (run_id, tenant, approver, approver_identity, decision, digest,"
                                + " decided_at) VALUES (:run, :tenant, 'pat', 'oidc:sso:subject-pat', 'APPROVE', 'digest', now())")
                .param("run", pending)
                .param("tenant", tenant)
                .update();
        assertThatThrownBy(() -> jdbc.sql(
                                "INSERT INTO airlock.approval_decisions (run_id, tenant, approver, approver_identity,"
                                        + " decision, digest, decided_at) VALUES (:run, :tenant, 'pat-2',"
                                        + " 'oidc:sso:subject-pat', 'APPROVE', 'digest', now())")
                        .param("run", pending)
                        .param("tenant", tenant)
                        .update())
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo("23505"));
    }

    @Test
    void aGrantOfAnotherTenantOpensNothing() {
        UUID othersGrant = grant(othersRun, "arthur", "GRANTED", Instant.now().plusSeconds(3600));
        assertThatThrownBy(() -> read(othersGrant, "arthur"))
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
    }

    @Test
    void theConsoleCannotOpenRequestsNorSettleARunThatIsStillPending() {
        UUID run = fixtures.run(tenant, RunState.PENDING_APPROVAL, NOW);
        assertRefused(
                DatabaseRole.CONSOLE,
                "INSERT INTO airlock.approval_requests (run_id, tenant, tool, agent, action, digest,"
                        + " approvers_required, status, created_at, expires_at) VALUES ('" + run + "', '" + tenant
                        + "', 'echo', 'bot', 'a', encode(sha256('a'::bytea), 'hex'), 1, 'PENDING', now(), now() + interval '1 hour')");
        assertRefused(DatabaseRole.CONSOLE, "SELECT airlock.settle_approval('" + pending + "', now())");
    }

    @Test
    void settlingAnApprovedRequestMovesItsRunAndNothingElse() {
        jdbc.sql("UPDATE airlock.approval_requests SET status = 'APPROVED', closed_at = now() WHERE run_id = :run")
                .param("run", pending)
                .update();
        String state = as(
                DatabaseRole.CONSOLE,
                tenant,
                () -> jdbc.sql("SELECT airlock.settle_approval(:run, now())")
                        .param("run", pending)
                        .query(String.class)
                        .single());
        assertThat(state).isEqualTo("APPROVED");
        assertThat(fixtures.state(pending)).isEqualTo("APPROVED");
        assertThatThrownBy(() -> as(
                        DatabaseRole.CONSOLE,
                        other,
                        () -> jdbc.sql("SELECT airlock.settle_approval(:run, now())")
                                .param("run", pending)
                                .query(String.class)
                                .single()))
                .as("from another tenant's scope")
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
    }

    @Test
    void textSearchGoesThroughTheIndexForTheTransactionsTenantOnly() {
        assertRefused(
                DatabaseRole.GATEWAY, "SELECT * FROM airlock.transcript_matches('" + tenant + "', '%output%', 10)");
        assertThatThrownBy(() -> as(
                        DatabaseRole.CONSOLE,
                        other,
                        () -> jdbc.sql("SELECT * FROM airlock.transcript_matches(:tenant, '%output%', 10)")
                                .param("tenant", tenant)
                                .query(UUID.class)
                                .list()))
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
        List<UUID> found = as(
                DatabaseRole.CONSOLE,
                tenant,
                () -> jdbc.sql("SELECT * FROM airlock.transcript_matches(:tenant, '%output%', 10)")
                        .param("tenant", tenant)
                        .query(UUID.class)
                        .list());
        assertThat(found).contains(completed).doesNotContain(othersRun);
        assertRefused(DatabaseRole.GATEWAY, "SELECT airlock.transcript_contains('" + completed + "', '%output%')");
        Boolean othersProbed = as(
                DatabaseRole.CONSOLE,
                tenant,
                () -> jdbc.sql("SELECT airlock.transcript_contains(:run, '%output%')")
                        .param("run", othersRun)
                        .query(Boolean.class)
                        .single());
        assertThat(othersProbed)
                .as("another tenant's transcript, probed by its run id")
                .isFalse();
    }

    // ---- both ----

    @Test
    void neitherSideMayChangeOrDeleteAuditEventsOrRunRetentionForAnotherTenant() {
        for (DatabaseRole role : DatabaseRole.values()) {
            assertRefused(role, "UPDATE airlock.audit_events SET details = 'forged' WHERE tenant = '" + tenant + "'");
            assertRefused(role, "DELETE FROM airlock.audit_events WHERE tenant = '" + tenant + "'");
            assertRefused(role, "DELETE FROM airlock.runs WHERE id = '" + completed + "'");
        }
        assertRefused(DatabaseRole.GATEWAY, "SELECT airlock.remove_oldest_audit_events('" + tenant + "', 1, now())");
        assertRefused(
                DatabaseRole.GATEWAY, "SELECT airlock.purge_retained('" + tenant + "', now(), now(), now(), now())");
        assertThatThrownBy(() -> as(
                        DatabaseRole.CONSOLE,
                        other,
                        () -> jdbc.sql("SELECT airlock.purge_retained(:tenant, now(), now(), now(), now())")
                                .param("tenant", tenant)
                                .query(Object.class)
                                .single()))
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
    }

    @Test
    void withTheTenantSetAQueryWithoutATenantConditionSeesThatTenantOnly() {
        for (DatabaseRole role : DatabaseRole.values()) {
            List<String> tenants = as(
                    role,
                    tenant,
                    () -> jdbc.sql("SELECT DISTINCT tenant FROM airlock.runs")
                            .query(String.class)
                            .list());
            assertThat(tenants).as(role.roleName()).containsExactly(tenant);
            for (String query : List.of(
                    "SELECT count(*) FROM airlock.transcripts WHERE run_id = :run",
                    "SELECT count(*) FROM airlock.run_streams WHERE run_id = :run",
                    "SELECT count(*) FROM airlock.audit_events WHERE run_id = :run",
                    "SELECT count(*) FROM restricted.raw_artifacts WHERE run_id = :run")) {
                Integer seen = as(
                        role,
                        tenant,
                        () -> jdbc.sql(query)
                                .param("run", othersRun)
                                .query(Integer.class)
                                .single());
                assertThat(seen).as("%s: %s", role.roleName(), query).isZero();
            }
        }
        assertRefused(
                DatabaseRole.GATEWAY,
                "INSERT INTO airlock.transcripts (run_id, stream, text, created_at) VALUES ('" + othersRun
                        + "', 'stderr', 'forged', now())");
        assertRefused(
                DatabaseRole.CONSOLE,
                "INSERT INTO airlock.approval_decisions (run_id, approver, decision, digest, decided_at)" + " VALUES ('"
                        + othersRun + "', 'mallory', 'APPROVE', 'digest', now())");
        assertRefusedByPolicy(DatabaseRole.GATEWAY, atHead(other, "config.changed", "airlock"));
        Integer updated = as(
                DatabaseRole.GATEWAY,
                tenant,
                () -> jdbc.sql("UPDATE airlock.runs SET failure = 'x' WHERE id = :run")
                        .param("run", othersRun)
                        .update());
        assertThat(updated).as("another tenant's run is not there to update").isZero();
    }

    @Test
    void withNoTenantNamedTheApplicationsRolesSeeNoRows() {
        for (DatabaseRole role : DatabaseRole.values()) {
            Integer seen = DatabaseScope.of(role, List.of())
                    .call(() -> tx.execute(status -> jdbc.sql("SELECT count(*) FROM airlock.runs")
                            .query(Integer.class)
                            .single()));
            assertThat(seen).as(role.roleName()).isZero();
        }
    }

    private RawArtifactStore.StoredBytes read(UUID grant, String reader) {
        return as(
                DatabaseRole.CONSOLE,
                tenant,
                () -> artifacts
                        .read(grant, reader, "password:" + reader, StreamName.STDOUT, 0, 1000)
                        .orElseThrow());
    }

    private <T> T as(DatabaseRole role, String scopeTenant, java.util.function.Supplier<T> work) {
        return DatabaseScope.of(role, List.of(scopeTenant)).call(() -> tx.execute(status -> work.get()));
    }

    private void assertRefused(DatabaseRole role, String statement) {
        assertRefused(role, statement, tenant);
    }

    private void assertRefused(DatabaseRole role, String statement, String scopeTenant) {
        assertThatThrownBy(() -> as(
                        role,
                        scopeTenant,
                        () -> jdbc.sql(statement).query((rs, n) -> 1).list()))
                .as("%s: %s", role.roleName(), statement)
                .satisfies(e -> assertThat(sqlState(e)).isEqualTo(DENIED));
    }

    private static String sqlState(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql.getSQLState();
            }
        }
        return "no SQLException in " + e;
    }

    private UUID completedRun(String runTenant) {
        UUID run = fixtures.run(runTenant, RunState.COMPLETED, NOW);
        tx.executeWithoutResult(status -> {
            jdbc.sql("""
                    INSERT INTO airlock.run_streams (run_id, stream, observed_bytes, retained_bytes, truncated, eof, sha256,
                                                     removed, redactions)
                    VALUES (:run, 'stdout', 6, 6, false, true, 'sha', '{}', 0)
                    """).param("run", run).update();
            jdbc.sql(
                            "INSERT INTO airlock.transcripts (run_id, stream, text, created_at) VALUES (:run, 'stdout', 'output', :at)")
                    .param("run", run)
                    .param("at", Timestamp.from(NOW))
                    .update();
            artifacts.store(
                    run, runTenant, "digest-" + run, "output".getBytes(StandardCharsets.UTF_8), new byte[0], 0, NOW);
            audit.append(runTenant, AuditEventType.RUN_REQUESTED, run, "agent:bot", Map.of("tool", "echo"), NOW);
        });
        return run;
    }

    private void request(UUID run, String status) {
        jdbc.sql("""
                INSERT INTO airlock.approval_requests (run_id, tenant, tool, agent, action, digest, approvers_required, status,
                                                       created_at, expires_at)
                VALUES (:run, :tenant, 'echo', 'bot', 'tool: echo', encode(sha256('tool: echo'::bytea), 'hex'), 1, :status, :at, :expires)
                """)
                .param("run", run)
                .param("tenant", tenant)
                .param("status", status)
                .param("at", Timestamp.from(NOW))
                .param("expires", Timestamp.from(NOW.plus(Duration.ofHours(1))))
                .update();
    }

    private UUID grant(UUID run, String requester, String status, Instant expires) {
        return grant(run, requester, "password:" + requester, status, expires);
    }

    private UUID grant(UUID run, String requester, @Nullable String identity, String status, Instant expires) {
        UUID id = UUID.randomUUID();
        String runTenant = jdbc.sql("SELECT tenant FROM airlock.runs WHERE id = :run")
                .param("run", run)
                .query(String.class)
                .single();
        jdbc.sql("""
                INSERT INTO restricted.raw_grants (id, tenant, run_id, requester, requester_identity, reason, status,
                                                  requested_at, decided_at, expires_at)
                VALUES (:id, :tenant, :run, :requester, :identity, 'audit', :status, :at, :at, :expires)
                """)
                .param("id", id)
                .param("tenant", runTenant)
                .param("run", run)
                .param("requester", requester)
                .param("identity", identity)
                .param("status", status)
                .param("at", Timestamp.from(NOW))
                .param("expires", Timestamp.from(expires))
                .update();
        return id;
    }
}
