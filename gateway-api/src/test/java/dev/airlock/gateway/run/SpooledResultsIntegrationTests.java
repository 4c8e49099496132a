package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Results kept in the spool while the database was away, replayed once it answers. */
@AirlockIntegrationTest
class SpooledResultsIntegrationTests {

    @Autowired
    ResultSpool spool;

    @Autowired
    ResultRecorder recorder;

    @Autowired
    RunExecutor executor;

    @Autowired
    RunService service;

    @Autowired
    dev.airlock.persistence.scope.Scopes scopes;

    @Autowired
    org.springframework.context.ApplicationContext context;

    /**
     * A result the database can never take (here: a call's result for a process run, refused by the run's own checks)
     * would keep its run RUNNING for good if its replica renewed the lease as long as the result waits. The replica
     * keeps it only for {@code airlock.executor.spool-lease-limit} (ten minutes here): then the lease runs out and the
     * run ends INTERRUPTED, while the result is still tried.
     */
    @Test
    void aResultTheDatabaseKeepsRefusingLetsItsRunsLeaseGo() throws Exception {
        dev.airlock.gateway.tenant.AgentIdentity agent =
                new dev.airlock.gateway.tenant.AgentIdentity("acme", "build-bot");
        UUID runId;
        try (var scope = scopes.agent("acme").open()) {
            runId = service.submit(
                            agent, "release", java.util.Map.of("note", "spooled"), null, null, java.time.Duration.ZERO)
                    .run()
                    .id();
        }
        // Executing on another replica as far as the database knows, with a lease that outlives the test.
        dev.airlock.gateway.support.OwnerDatabase.jdbc(context)
                .sql("UPDATE airlock.runs SET state = 'RUNNING', claimed_by = 'elsewhere', started_at = now(),"
                        + " sandbox = 'BUBBLEWRAP', lease_until = now() + interval '1 hour', version = version + 1"
                        + " WHERE id = ?")
                .param(runId)
                .update();
        Instant now = Instant.now();
        CaptureResult refusedForGood = CaptureResult.callRefused(
                now,
                new dev.airlock.gateway.capture.CallFacts(
                        "api", "GET", "https://example.test/", null, java.util.Map.of(), 0, "refused", true));
        try {
            spool.keep(runId, refusedForGood);
            recorder.replay();
            assertThat(recorder.spooled()).as("refused, and kept").contains(runId);
            assertThat(executor.leased())
                    .as("a fresh spooled result keeps its lease")
                    .contains(runId);

            java.nio.file.Files.setLastModifiedTime(
                    spool.fileOf(runId),
                    java.nio.file.attribute.FileTime.from(now.minus(java.time.Duration.ofMinutes(11))));
            assertThat(executor.leased()).as("its lease let go").doesNotContain(runId);
            recorder.replay();
            assertThat(spool.runs()).as("the result is still tried").contains(runId);
        } finally {
            spool.remove(runId);
            dev.airlock.gateway.support.OwnerDatabase.jdbc(context)
                    .sql("UPDATE airlock.runs SET lease_until = now() - interval '1 second' WHERE id = ?")
                    .param(runId)
                    .update();
        }
    }

    @Test
    void aSpooledResultOfARunRetentionRemovedIsDroppedInsteadOfStoppingTheReplay() {
        // An INTERRUPTED run is purged like any ended run; a replica that comes back after that
        // still holds its result.
        UUID gone = UUID.randomUUID();
        Instant now = Instant.now();
        spool.keep(gone, CaptureResult.spawnFailed(now, now, "the sandbox could not start"));
        assertThat(recorder.spooled()).contains(gone);
        recorder.replay();
        assertThat(recorder.spooled()).doesNotContain(gone);
    }
}
