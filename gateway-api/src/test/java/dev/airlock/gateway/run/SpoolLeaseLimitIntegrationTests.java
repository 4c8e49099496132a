package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.capture.CallFacts;
import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.support.OwnerDatabase;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.persistence.scope.Scopes;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * A result the database can never take would keep its run RUNNING for good if its replica renewed the lease as long as
 * the result waits in the spool. The replica keeps it only for {@code airlock.executor.spool-lease-limit} (two seconds
 * here, from when it spooled the result), while the result is still tried.
 */
@ExecutorTestContext
class SpoolLeaseLimitIntegrationTests {

    @Autowired
    ResultSpool spool;

    @Autowired
    ResultRecorder recorder;

    @Autowired
    RunExecutor executor;

    @Autowired
    RunService service;

    @Autowired
    Scopes scopes;

    @Autowired
    ApplicationContext context;

    @Test
    void aResultTheDatabaseKeepsRefusingLetsItsRunsLeaseGo() {
        AgentIdentity agent = new AgentIdentity("acme", "build-bot");
        UUID runId;
        try (var scope = scopes.agent("acme").open()) {
            runId = service.submit(agent, "release", Map.of("note", "spooled"), null, null, Duration.ZERO)
                    .run()
                    .id();
        }
        // Executing on another replica as far as the database knows, with a lease that outlives the test.
        OwnerDatabase.jdbc(context)
                .sql("UPDATE airlock.runs SET state = 'RUNNING', claimed_by = 'elsewhere', started_at = now(),"
                        + " sandbox = 'BUBBLEWRAP', lease_until = now() + interval '1 hour', version = version + 1"
                        + " WHERE id = ?")
                .param(runId)
                .update();
        // A call's result for a process run: refused by the run's own checks, every time it is tried.
        CaptureResult refusedForGood = CaptureResult.callRefused(
                Instant.now(),
                new CallFacts("api", "GET", "https://example.test/", null, Map.of(), 0, "refused", true));
        try {
            spool.keep(runId, refusedForGood);
            recorder.replay();
            assertThat(spool.runs()).as("refused, and kept").contains(runId);
            assertThat(executor.leased())
                    .as("a fresh spooled result keeps its lease")
                    .contains(runId);
            Awaitility.await("its lease let go")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !executor.leased().contains(runId));
            recorder.replay();
            assertThat(spool.runs()).as("the result is still tried").contains(runId);
        } finally {
            spool.remove(runId);
            OwnerDatabase.jdbc(context)
                    .sql("UPDATE airlock.approval_requests SET status = 'EXPIRED', closed_at = now() WHERE run_id = ?")
                    .param(runId)
                    .update();
        }
    }
}
