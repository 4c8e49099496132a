package dev.airlock.persistence.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.persistence.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.orm.ObjectOptimisticLockingFailureException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A run's life cycle as stored in PostgreSQL: every guarded transition from every state, applied
 * to a run loaded from the database and saved back, either moves the stored state exactly as
 * the life cycle says or is refused and leaves the row as it was; a stale copy cannot overwrite
 * a newer state, and the database refuses a state the life cycle does not know.
 */
@SpringBootTest
class RunRecordIntegrationTests {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @Autowired
    RunRepository runs;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    RunWrites writes;

    @Autowired
    PlatformTransactionManager transactions;

    Fixtures fixtures;
    String tenant;

    @BeforeEach
    void setUp() {
        fixtures = new Fixtures(jdbc);
        tenant = fixtures.tenant();
    }

    /**
     * The transitions, each a guarded method of the run. A human decision (approved, denied by
     * people, expired) moves the run one way only: the database's {@code settle_approval}, tested
     * below and in the database roles tests.
     */
    enum Transition {
        APPROVE_AUTOMATICALLY(r -> r.approveAutomatically(NOW)),
        AWAIT_APPROVAL(r -> r.awaitApproval(NOW)),
        DENY(r -> r.deny(NOW)),
        START_ON(r -> r.startOn("node-a", NOW, NOW.plusSeconds(30), SandboxKind.BUBBLEWRAP)),
        INTERRUPT(r -> r.interrupt(NOW, NOW)),
        FAIL_TO_START(r -> r.failToStart("no such file", NOW)),
        FINISH_EXITED(r -> r.finish(3, Termination.EXITED, SandboxKind.BUBBLEWRAP, NOW, NOW, NOW)),
        FINISH_OUTPUT_LIMIT(r -> r.finish(null, Termination.OUTPUT_LIMIT, SandboxKind.BUBBLEWRAP, NOW, NOW, NOW)),
        FINISH_TIMEOUT(r -> r.finish(null, Termination.TIMEOUT, SandboxKind.BUBBLEWRAP, NOW, NOW, NOW)),
        FINISH_CANCELLED(r -> r.finish(null, Termination.CANCELLED, SandboxKind.BUBBLEWRAP, NOW, NOW, NOW)),
        CANCEL_BEFORE_START(r -> r.cancelBeforeStart(NOW)),
        REQUEST_CANCEL(r -> r.requestCancel(NOW));

        final Consumer<RunRecord> apply;

        Transition(Consumer<RunRecord> apply) {
            this.apply = apply;
        }
    }

    /**
     * The life cycle: for each transition, the states it leaves from and the state it leads to.
     * A stored run is never started by {@code startOn}: it is claimed through {@link RunClaims}.
     */
    private static final Map<Transition, Map<Set<RunState>, RunState>> LIFE_CYCLE = Map.ofEntries(
            Map.entry(Transition.APPROVE_AUTOMATICALLY, Map.of(Set.of(RunState.REQUESTED), RunState.APPROVED)),
            Map.entry(Transition.AWAIT_APPROVAL, Map.of(Set.of(RunState.REQUESTED), RunState.PENDING_APPROVAL)),
            Map.entry(Transition.DENY, Map.of(Set.of(RunState.REQUESTED), RunState.DENIED)),
            Map.entry(Transition.START_ON, Map.of()),
            Map.entry(Transition.INTERRUPT, Map.of(Set.of(RunState.RUNNING), RunState.INTERRUPTED)),
            // A result is also recorded late, by the replica that executed the run, after another replica
            // marked it INTERRUPTED: it is what was observed, and replaces the unknown outcome.
            Map.entry(
                    Transition.FAIL_TO_START, Map.of(Set.of(RunState.RUNNING, RunState.INTERRUPTED), RunState.FAILED)),
            Map.entry(
                    Transition.FINISH_EXITED,
                    Map.of(Set.of(RunState.RUNNING, RunState.INTERRUPTED), RunState.COMPLETED)),
            Map.entry(
                    Transition.FINISH_OUTPUT_LIMIT,
                    Map.of(Set.of(RunState.RUNNING, RunState.INTERRUPTED), RunState.COMPLETED)),
            Map.entry(
                    Transition.FINISH_TIMEOUT,
                    Map.of(Set.of(RunState.RUNNING, RunState.INTERRUPTED), RunState.TIMED_OUT)),
            Map.entry(
                    Transition.FINISH_CANCELLED,
                    Map.of(Set.of(RunState.RUNNING, RunState.INTERRUPTED), RunState.CANCELLED)),
            Map.entry(
                    Transition.CANCEL_BEFORE_START,
                    Map.of(
                            Set.of(RunState.REQUESTED, RunState.PENDING_APPROVAL, RunState.APPROVED),
                            RunState.CANCELLED)),
            Map.entry(Transition.REQUEST_CANCEL, Map.of(Set.of(RunState.RUNNING), RunState.RUNNING)));

    static List<Arguments> everyTransitionFromEveryState() {
        List<Arguments> cases = new ArrayList<>();
        for (Transition transition : Transition.values()) {
            for (RunState from : RunState.values()) {
                RunState to = LIFE_CYCLE.get(transition).entrySet().stream()
                        .filter(e -> e.getKey().contains(from))
                        .map(Map.Entry::getValue)
                        .findFirst()
                        .orElse(null);
                cases.add(Arguments.of(transition, from, to));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} from {1} -> {2}")
    @MethodSource("everyTransitionFromEveryState")
    void aStoredRunMovesOnlyAsItsLifeCycleAllows(Transition transition, RunState from, RunState to) {
        UUID id = stored(from);
        long version = fixtures.version(id);
        TransactionTemplate tx = new TransactionTemplate(transactions);
        if (to == null) {
            assertThatThrownBy(() -> tx.executeWithoutResult(status -> {
                        RunRecord run = runs.findByIdAndTenant(id, tenant).orElseThrow();
                        transition.apply.accept(run);
                        runs.save(run);
                    }))
                    .isInstanceOfSatisfying(IllegalStateException.class, refused -> {
                        if (transition != Transition.START_ON || from != RunState.APPROVED) {
                            assertThat(refused).isInstanceOf(IllegalRunTransition.class);
                            assertThat(((IllegalRunTransition) refused).current())
                                    .isEqualTo(from);
                        }
                    });
            assertThat(fixtures.state(id)).as("state left as it was").isEqualTo(from.name());
            assertThat(fixtures.version(id)).isEqualTo(version);
            return;
        }
        tx.executeWithoutResult(status -> {
            RunRecord run = runs.findByIdAndTenant(id, tenant).orElseThrow();
            transition.apply.accept(run);
            runs.save(run);
        });
        assertThat(fixtures.state(id)).isEqualTo(to.name());
        assertThat(fixtures.version(id)).isEqualTo(version + 1);
        RunRecord reloaded = runs.findById(id).orElseThrow();
        assertThat(reloaded.state()).isEqualTo(to);
        assertThat(reloaded.updatedAt()).isEqualTo(NOW);
        if (transition == Transition.REQUEST_CANCEL) {
            assertThat(reloaded.cancelRequested()).isTrue();
        }
        if (to.isTerminal()) {
            assertThat(reloaded.endedAt()).isEqualTo(NOW);
        }
    }

    @Test
    void aRefusalNamesTheStateTheRunWasIn() {
        UUID id = stored(RunState.COMPLETED);
        RunRecord run = runs.findById(id).orElseThrow();
        assertThatThrownBy(() -> run.deny(NOW))
                .isInstanceOfSatisfying(
                        IllegalRunTransition.class,
                        refused -> assertThat(refused.current()).isEqualTo(RunState.COMPLETED))
                .hasMessage("run " + id + " is COMPLETED; this change needs one of [REQUESTED]");
    }

    @Test
    void onlyARunNotYetStoredIsStartedWithoutAClaim() {
        RunRecord fresh = RunRecord.request(newRun(), NOW);
        fresh.approveAutomatically(NOW);
        fresh.startOn("node-a", NOW, NOW.plusSeconds(30), SandboxKind.BUBBLEWRAP);
        runs.save(fresh);
        assertThat(fixtures.state(fresh.id())).isEqualTo("RUNNING");
        assertThat(runs.findById(fresh.id()).orElseThrow().claimedBy()).isEqualTo("node-a");

        RunRecord stored = runs.findById(stored(RunState.APPROVED)).orElseThrow();
        assertThatThrownBy(() -> stored.startOn("node-b", NOW, NOW.plusSeconds(30), SandboxKind.BUBBLEWRAP))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("claim it through RunClaims");
    }

    @ParameterizedTest(name = "a request {0} settles a run in {1}")
    @org.junit.jupiter.params.provider.CsvSource(textBlock = """
            APPROVED, PENDING_APPROVAL, APPROVED
            DENIED,   PENDING_APPROVAL, DENIED
            EXPIRED,  PENDING_APPROVAL, EXPIRED
            APPROVED, CANCELLED,
            EXPIRED,  CANCELLED,
            APPROVED, REQUESTED,
            """)
    void aClosedRequestSettlesOnlyARunStillWaitingForIt(String request, RunState from, RunState to) {
        UUID id = stored(from);
        long version = fixtures.version(id);
        if (to == null && !request.equals("EXPIRED")) {
            assertThatThrownBy(() -> settle(id, request))
                    .isInstanceOf(org.springframework.dao.DataAccessException.class);
            assertThat(fixtures.state(id)).isEqualTo(from.name());
            return;
        }
        assertThat(settle(id, request)).isEqualTo(to == null ? null : to.name());
        assertThat(fixtures.state(id)).isEqualTo(to == null ? from.name() : to.name());
        assertThat(fixtures.version(id)).isEqualTo(to == null ? version : version + 1);
    }

    /** An end as {@link RunWrites} writes it: onto the executor's copy of a run it started. */
    private void writeEnd(RunRecord executorsCopy, Termination termination, String text) {
        RunRecord ended = executorsCopy.copy();
        ended.finish(termination == Termination.EXITED ? 0 : null, termination, SandboxKind.BUBBLEWRAP, NOW, NOW, NOW);
        List<StreamRecord> streams = new ArrayList<>();
        List<Transcript> transcripts = new ArrayList<>();
        for (StreamName stream : StreamName.values()) {
            StreamKey key = new StreamKey(ended.id(), stream);
            streams.add(new StreamRecord(key, 3, 3, false, true, "a".repeat(64), "{}", 0));
            transcripts.add(new Transcript(key, text, NOW));
        }
        new TransactionTemplate(transactions).executeWithoutResult(status -> writes.end(ended, streams, transcripts));
    }

    @Test
    void anEndIsWrittenInOneStatementOnlyOverARunStillExecuting() {
        UUID id = stored(RunState.RUNNING);
        RunRecord executorsCopy = runs.findById(id).orElseThrow().copy();
        long version = fixtures.version(id);
        writeEnd(executorsCopy, Termination.EXITED, "ok\n");
        RunRecord written = runs.findById(id).orElseThrow();
        assertThat(written.state()).isEqualTo(RunState.COMPLETED);
        assertThat(written.exitCode()).isZero();
        assertThat(written.termination()).isEqualTo(Termination.EXITED);
        assertThat(written.endedAt()).isEqualTo(NOW);
        assertThat(fixtures.version(id)).isEqualTo(version + 1);
        assertThat(fixtures.count("airlock.run_streams", id)).isEqualTo(2);
        assertThat(fixtures.count("airlock.transcripts", id)).isEqualTo(2);

        // The same end again (a second copy of the run as it started): refused, nothing more written.
        assertThatThrownBy(() -> writeEnd(executorsCopy, Termination.TIMEOUT, "again\n"))
                .isInstanceOfSatisfying(
                        IllegalRunTransition.class,
                        refused -> assertThat(refused.current()).isEqualTo(RunState.COMPLETED));
        assertThat(fixtures.state(id)).isEqualTo("COMPLETED");
        assertThat(fixtures.version(id)).isEqualTo(version + 1);
        assertThat(jdbc.sql("SELECT text FROM airlock.transcripts WHERE run_id = :id")
                        .param("id", id)
                        .query(String.class)
                        .list())
                .containsOnly("ok\n");

        // A run another replica marked INTERRUPTED (its lease ran out) takes the result observed late.
        UUID lost = stored(RunState.RUNNING);
        RunRecord lostCopy = runs.findById(lost).orElseThrow().copy();
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            RunRecord run = runs.findById(lost).orElseThrow();
            run.interrupt(NOW, NOW);
            runs.save(run);
        });
        writeEnd(lostCopy, Termination.TIMEOUT, "late\n");
        assertThat(fixtures.state(lost)).isEqualTo("TIMED_OUT");
        assertThat(fixtures.count("airlock.transcripts", lost)).isEqualTo(2);
    }

    @Test
    void aStaleCopyCannotOverwriteANewerState() {
        UUID id = stored(RunState.PENDING_APPROVAL);
        RunRecord cancelling = runs.findById(id).orElseThrow();
        settle(id, "APPROVED");
        cancelling.cancelBeforeStart(NOW);
        assertThatThrownBy(() -> runs.save(cancelling)).isInstanceOf(ObjectOptimisticLockingFailureException.class);
        assertThat(fixtures.state(id)).isEqualTo("APPROVED");
    }

    @Test
    void anInterruptedRunKeepsNoExitCodeAndSaysWhyAndWhen() {
        UUID id = stored(RunState.RUNNING);
        Instant ranOut = NOW.minusSeconds(5);
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            RunRecord run = runs.findById(id).orElseThrow();
            run.interrupt(ranOut, NOW);
            runs.save(run);
        });
        RunRecord interrupted = runs.findById(id).orElseThrow();
        assertThat(interrupted.state()).isEqualTo(RunState.INTERRUPTED);
        assertThat(interrupted.state().isTerminal()).isTrue();
        assertThat(interrupted.termination()).isEqualTo(Termination.LOST);
        assertThat(interrupted.exitCode()).isNull();
        assertThat(interrupted.endedAt()).isEqualTo(ranOut);
        assertThat(interrupted.failure()).contains("node-a").contains("lease");
    }

    @Test
    void onlyARunCancelledBeforeItsProcessStartedNamesNoSandbox() {
        UUID id = stored(RunState.RUNNING);
        RunRecord run = runs.findById(id).orElseThrow();
        assertThatThrownBy(() -> run.finish(0, Termination.EXITED, null, NOW, NOW, NOW))
                .isInstanceOf(IllegalArgumentException.class);
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            RunRecord fresh = runs.findById(id).orElseThrow();
            fresh.finish(null, Termination.CANCELLED, null, NOW, NOW, NOW);
            runs.save(fresh);
        });
        assertThat(fixtures.state(id)).isEqualTo("CANCELLED");
    }

    @Test
    void theDatabaseRefusesAStateTheLifeCycleDoesNotKnow() {
        UUID id = stored(RunState.REQUESTED);
        assertThatThrownBy(() -> jdbc.sql("UPDATE airlock.runs SET state = 'DONE' WHERE id = :id")
                        .param("id", id)
                        .update())
                .isInstanceOf(DataIntegrityViolationException.class)
                .hasMessageContaining("runs_state_check");
        assertThat(fixtures.state(id)).isEqualTo("REQUESTED");
    }

    /** A run stored in {@code state}, reached through the transitions the life cycle allows. */
    private UUID stored(RunState state) {
        RunRecord run = RunRecord.request(newRun(), NOW.minusSeconds(60));
        Instant before = NOW.minusSeconds(30);
        switch (state) {
            case REQUESTED -> {}
            case PENDING_APPROVAL -> run.awaitApproval(before);
            case APPROVED -> run.approveAutomatically(before);
            case DENIED -> run.deny(before);
            case EXPIRED -> {
                run.awaitApproval(before);
                runs.save(run);
                settle(run.id(), "EXPIRED");
                return run.id();
            }
            case CANCELLED -> run.cancelBeforeStart(before);
            default -> {
                run.approveAutomatically(before);
                run.startOn("node-a", before, before.plusSeconds(30), SandboxKind.BUBBLEWRAP);
                switch (state) {
                    case RUNNING -> {}
                    case INTERRUPTED -> run.interrupt(before, before);
                    case COMPLETED -> run.finish(0, Termination.EXITED, SandboxKind.BUBBLEWRAP, before, before, before);
                    case TIMED_OUT ->
                        run.finish(null, Termination.TIMEOUT, SandboxKind.BUBBLEWRAP, before, before, before);
                    case FAILED -> run.failToStart("no such file", before);
                    default -> throw new IllegalArgumentException(state.name());
                }
            }
        }
        runs.save(run);
        assertThat(fixtures.state(run.id())).isEqualTo(state.name());
        return run.id();
    }

    /**
     * Closes the run's approval request as {@code status} and settles the run the one way the
     * application does: the database function, in a transaction scoped to the run's tenant.
     *
     * @return the run's new state, or null when it had left PENDING_APPROVAL already
     */
    private String settle(UUID run, String status) {
        return new TransactionTemplate(transactions).execute(tx -> {
            jdbc.sql("SELECT set_config('airlock.tenants', :tenants, true)")
                    .param("tenants", "{" + tenant + "}")
                    .query(String.class)
                    .single();
            jdbc.sql("""
                    INSERT INTO airlock.approval_requests (run_id, tenant, tool, agent, action, digest, approvers_required,
                        status, created_at, expires_at, closed_at)
                    VALUES (:run, :tenant, 'echo', 'bot', 'a', encode(sha256('a'::bytea), 'hex'), 1, :status, now(), now() + interval '1 hour', now())
                    """)
                    .param("run", run)
                    .param("tenant", tenant)
                    .param("status", status)
                    .update();
            return jdbc.sql("SELECT airlock.settle_approval(:run, :now)")
                    .param("run", run)
                    .param("now", java.sql.Timestamp.from(NOW))
                    .query(String.class)
                    .optional()
                    .orElse(null);
        });
    }

    private RunRecord.NewRun newRun() {
        return new RunRecord.NewRun(
                UUID.randomUUID(),
                tenant,
                "bot",
                "echo",
                fixtures.toolSnapshot(tenant),
                "{}",
                "[\"echo\"]",
                "sha",
                null);
    }
}
