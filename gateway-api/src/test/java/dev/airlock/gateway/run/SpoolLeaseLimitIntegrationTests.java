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

    @Autowired
    tools.jackson.databind.json.JsonMapper json;

    /** A run executing elsewhere as far as the database knows, and a result for it that the database always refuses. */
    private UUID refusedRun() {
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
        return runId;
    }

    /** A call's result for a process run: refused by the run's own checks, every time it is tried. */
    private static CaptureResult refusedForGood() {
        return CaptureResult.callRefused(
                Instant.now(),
                new CallFacts("api", "GET", "https://example.test/", null, Map.of(), 0, "refused", true));
    }

    private void forget(UUID runId) {
        spool.remove(runId);
        OwnerDatabase.jdbc(context)
                .sql("UPDATE airlock.runs SET lease_until = now() - interval '1 second' WHERE id = ?")
                .param(runId)
                .update();
        OwnerDatabase.jdbc(context)
                .sql("UPDATE airlock.approval_requests SET status = 'EXPIRED', closed_at = now() WHERE run_id = ?")
                .param(runId)
                .update();
    }

    @Test
    void aResultTheDatabaseKeepsRefusingLetsItsRunsLeaseGo() {
        UUID runId = refusedRun();
        CaptureResult refusedForGood = refusedForGood();
        try {
            spool.keep(runId, refusedForGood);
            assertThat(executor.leased())
                    .as("a fresh spooled result keeps its lease")
                    .contains(runId);
            recorder.replay();
            assertThat(spool.runs()).as("refused, and kept").contains(runId);
            Awaitility.await("its lease let go")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !executor.leased().contains(runId));
            recorder.replay();
            assertThat(spool.runs()).as("the result is still tried").contains(runId);
        } finally {
            forget(runId);
        }
    }

    /**
     * A result found in the spool after a restart counts its file's age (at most the limit): a replica restarted more
     * often than the limit does not keep a refused result's run RUNNING for good.
     */
    @Test
    void aResultFoundInTheSpoolCountsItsFilesAge() throws Exception {
        UUID runId = refusedRun();
        java.nio.file.Path dir = context.getBean(dev.airlock.kernel.config.AirlockProperties.class)
                .dataDir()
                .resolve("spool");
        // Put in place whole and already an hour old, as a replica that stopped left it.
        java.nio.file.Path written = dir.resolve(runId + ".written");
        java.nio.file.Files.write(written, json.writeValueAsBytes(refusedForGood()));
        java.nio.file.Files.setLastModifiedTime(
                written, java.nio.file.attribute.FileTime.from(Instant.now().minus(Duration.ofHours(1))));
        try {
            java.nio.file.Files.move(
                    written, dir.resolve(runId + ".result.json"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            assertThat(executor.leased()).as("its lease let go at once").doesNotContain(runId);
            assertThat(spool.runs()).as("the result is still there to be tried").contains(runId);
        } finally {
            java.nio.file.Files.deleteIfExists(written);
            forget(runId);
        }
    }
}
