package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.limits.TenantLimits;
import dev.airlock.gateway.support.OwnerDatabase;
import dev.airlock.gateway.support.TestDatabaseConfiguration;
import dev.airlock.gateway.support.TestSecrets;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import dev.airlock.persistence.run.RunState;
import dev.airlock.persistence.scope.Scopes;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * A run whose claim races the start of a drain reaches the executor after it stopped taking runs: it is recorded as
 * never started (FAILED, saying why), not left RUNNING to end INTERRUPTED with its outcome unknown. A context of its
 * own, since the test drains its executor.
 */
@SpringBootTest(properties = "airlock.executor.drain-timeout=PT1S")
@ActiveProfiles("test")
@Import({
    TestDatabaseConfiguration.class,
    TestSecrets.class,
    dev.airlock.gateway.support.MovableClock.Configuration.class
})
class DrainRaceIntegrationTests {

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

    @Test
    void aRunClaimedAsTheDrainEndedIsRecordedAsNeverStarted() {
        AgentIdentity agent = new AgentIdentity("acme", "build-bot");
        // Parked for people, so that no dispatcher of any context claims it; claimed below as a dispatcher would.
        RunRecord parked;
        try (var scope = scopes.agent("acme").open()) {
            parked = service.submit(agent, "release", Map.of("note", "v1"), null, null, Duration.ZERO)
                    .run();
        }
        assertThat(parked.state()).isEqualTo(RunState.PENDING_APPROVAL);
        executor.stop();
        try {
            OwnerDatabase.jdbc(context)
                    .sql("UPDATE airlock.runs SET state = 'RUNNING', claimed_by = ?, started_at = now(), sandbox = ?,"
                            + " lease_until = now() + interval '30 seconds', version = version + 1 WHERE id = ?")
                    .params(executor.node(), executor.sandbox().name(), parked.id())
                    .update();
            try (var scope = scopes.agent("acme").open()) {
                RunRecord claimed = runs.findById(parked.id()).orElseThrow();
                executor.start(Execution.of(claimed), limits.tryExecute("acme").orElseThrow());
                RunRecord ended = runs.findById(parked.id()).orElseThrow();
                assertThat(ended.state()).isEqualTo(RunState.FAILED);
                assertThat(ended.failure()).contains("was shutting down; the run was not started");
            }
            assertThat(limits.freeSlots("acme")).as("its slot given back").isPositive();
        } finally {
            executor.start();
        }
    }
}
