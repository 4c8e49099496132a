package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.limits.TenantLimits;
import dev.airlock.gateway.support.OwnerDatabase;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import dev.airlock.persistence.run.RunState;
import dev.airlock.persistence.scope.Scopes;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * Claimed runs the executor must not start, recorded as never started (FAILED, saying why) rather than left RUNNING
 * to end INTERRUPTED with their outcome unknown: one whose claim raced the start of a drain, one whose lease was
 * written too long ago. A context of its own, since a test drains its executor.
 */
@ExecutorTestContext
class UnstartedRunsIntegrationTests {

    @Autowired
    RunExecutor executor;

    @Autowired
    RunService service;

    @Autowired
    RunRepository runs;

    @Autowired
    TenantLimits limits;

    @Autowired
    Scopes scopes;

    @Autowired
    ApplicationContext context;

    /**
     * A run whose claim was answered late (its transaction held up for most of a lease, or the replica cut off from
     * the database after the claim) may have lost its lease before it starts: it is not started.
     */
    @Test
    void aRunWhoseLeaseWasWrittenTooLongAgoIsNotStarted() {
        RunRecord claimed = parkedThenClaimed("late");
        int free = limits.freeSlots("acme");
        RunRecord ended =
                endedAfterStart(claimed, System.nanoTime() - Duration.ofHours(1).toNanos());
        assertThat(ended.state()).isEqualTo(RunState.FAILED);
        assertThat(ended.failure()).contains("lease was not renewed in time");
        org.awaitility.Awaitility.await("its slot given back")
                .atMost(Duration.ofSeconds(5))
                .until(() -> limits.freeSlots("acme") == free);
    }

    /** An HTTP tool's run not started says why as its call's reason, which is what its envelope shows. */
    @Test
    void aCallNotStartedSaysWhyInItsCall() {
        RunRecord claimed = parkedThenClaimed(
                new AgentIdentity("webapi", "bot"), "restart", Map.of("service", "billing", "environment", "staging"));
        RunRecord ended =
                endedAfterStart(claimed, System.nanoTime() - Duration.ofHours(1).toNanos());
        assertThat(ended.state()).isEqualTo(RunState.FAILED);
        assertThat(ended.callJson()).contains("lease was not renewed in time");
    }

    /** A run whose recorded request cannot be read (a row written by another build) is refused, not left running. */
    @Test
    void aRunWhoseRecordedActionCannotBeReadIsNotStarted() {
        RunRecord parked = parkedThenClaimed(
                new AgentIdentity("webapi", "bot"), "restart", Map.of("service", "billing", "environment", "staging"));
        OwnerDatabase.jdbc(context)
                .sql("UPDATE airlock.runs SET request = '\"not a request\"' WHERE id = ?")
                .param(parked.id())
                .update();
        RunRecord claimed;
        try (var scope = scopes.agent("webapi").open()) {
            claimed = runs.findById(parked.id()).orElseThrow();
        }
        // Claimed a minute from now: this context's lease lapses after 783 ms, and this test is not about the fence.
        RunRecord ended = endedAfterStart(
                claimed, System.nanoTime() + Duration.ofMinutes(1).toNanos());
        assertThat(ended.state()).isEqualTo(RunState.FAILED);
        assertThat(ended.failure()).contains("could not be prepared to run");
    }

    /** Hands the claimed run to the executor, its claim made at {@code claimedAt}, and reads it once it has ended. */
    private RunRecord endedAfterStart(RunRecord claimed, long claimedAt) {
        String tenant = claimed.tenant();
        try (var scope = scopes.agent(tenant).open()) {
            executor.start(Execution.of(claimed), limits.tryExecute(tenant).orElseThrow(), claimedAt);
            org.awaitility.Awaitility.await("the run ended")
                    .pollInSameThread()
                    .atMost(Duration.ofSeconds(20))
                    .until(() ->
                            runs.findById(claimed.id()).orElseThrow().state().isTerminal());
            return runs.findById(claimed.id()).orElseThrow();
        }
    }

    private RunRecord parkedThenClaimed(String note) {
        return parkedThenClaimed(new AgentIdentity("acme", "build-bot"), "release", Map.of("note", note));
    }

    /**
     * A run parked for people, so that no dispatcher claims it, then claimed as a dispatcher would, under another
     * replica's name in the database (so that this replica's renewals never write its lease, which would make it
     * younger than the test says).
     */
    private RunRecord parkedThenClaimed(AgentIdentity agent, String tool, Map<String, Object> arguments) {
        RunRecord parked;
        try (var scope = scopes.agent(agent.tenant()).open()) {
            parked = service.submit(agent, tool, arguments, null, null, Duration.ZERO)
                    .run();
        }
        assertThat(parked.state()).isEqualTo(RunState.PENDING_APPROVAL);
        OwnerDatabase.jdbc(context)
                .sql("UPDATE airlock.runs SET state = 'RUNNING', claimed_by = ?, started_at = now(),"
                        + " sandbox = CASE WHEN kind = 'PROCESS' THEN ? END,"
                        + " lease_until = now() + interval '30 seconds', version = version + 1 WHERE id = ?")
                .params("elsewhere", executor.sandbox().name(), parked.id())
                .update();
        try (var scope = scopes.agent(agent.tenant()).open()) {
            return runs.findById(parked.id()).orElseThrow();
        }
    }

    @Test
    void aRunClaimedAsTheDrainEndedIsRecordedAsNeverStarted() {
        RunRecord claimed = parkedThenClaimed("v1");
        int free = limits.freeSlots("acme");
        executor.stop();
        try {
            try (var scope = scopes.agent("acme").open()) {
                executor.start(Execution.of(claimed), limits.tryExecute("acme").orElseThrow(), System.nanoTime());
                RunRecord ended = runs.findById(claimed.id()).orElseThrow();
                assertThat(ended.state()).isEqualTo(RunState.FAILED);
                assertThat(ended.failure()).contains("was shutting down; the run was not started");
            }
            assertThat(limits.freeSlots("acme")).as("its slot given back").isEqualTo(free);
        } finally {
            executor.start();
        }
    }
}
