package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.evidence.EvidenceFormat;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.MovableClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A run whose request waited too long to be recorded (behind a long retention purge, which holds
 * the tenant's audit lock) is not recorded at all: an evidence bundle of a range that ended in the
 * meantime, exported once the range had settled, could not have held it.
 */
@AirlockIntegrationTest
class RecordingLimitIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @Autowired
    MovableClock clock;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase owner;

    /** An agent of a tenant of its own: no other test, and no background work, appends to its audit log. */
    private static final String LATECOMER = "latecomer-bot-key";

    private static final String AUDIT_LOCK = "airlock-audit:latecomer";

    @Test
    void theLimitIsWellInsideTheTimeARangeMustHaveEndedBeforeItsExport() {
        assertThat(RunService.RECORDING_LIMIT.multipliedBy(2)).isLessThanOrEqualTo(EvidenceFormat.SETTLE);
    }

    @Test
    void aRunRecordedLaterThanTheLimitIsRefusedAndNothingIsKept() throws Exception {
        AgentApi api = new AgentApi(mvc);
        String message = "late-" + System.nanoTime();
        AtomicReference<CompletableFuture<AgentApi.Response>> request = new AtomicReference<>();
        try {
            new TransactionTemplate(transactions).executeWithoutResult(status -> {
                // The tenant's audit lock, as a retention purge holds it for its whole transaction.
                jdbc.sql("SELECT pg_advisory_xact_lock(hashtext(?))")
                        .param(AUDIT_LOCK)
                        .query(Object.class)
                        .optional();
                CompletableFuture<AgentApi.Response> waiting = CompletableFuture.supplyAsync(
                        () -> api.run(LATECOMER, "echo", "{\"message\":\"" + message + "\"}"));
                awaitWaitingOnTheLock();
                clock.advance(RunService.RECORDING_LIMIT.plusSeconds(1));
                request.set(waiting);
            });
            AgentApi.Response late = request.get().get(60, TimeUnit.SECONDS);
            assertThat(late.status()).as(late.body().toString()).isEqualTo(503);
            assertThat(late.body().toString()).contains("recording-late");
        } finally {
            clock.reset();
        }
        assertThat(owner.queryForObject(
                        "SELECT count(*) FROM airlock.runs WHERE arguments::text LIKE ?",
                        Long.class,
                        "%" + message + "%"))
                .as("nothing of the late run was kept")
                .isZero();
        assertThat(api.run(LATECOMER, "echo", "{\"message\":\"on time\"}").status())
                .isIn(200, 201);
    }

    /** Until a session waits on the tenant's audit lock (the request's audit append). */
    private void awaitWaitingOnTheLock() {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            // A bigint advisory key is shown as its high (classid) and low (objid) 32 bits.
            Integer waiting = jdbc.sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                            + " AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = hashtext(?)::bigint")
                    .param(AUDIT_LOCK)
                    .query(Integer.class)
                    .single();
            if (waiting > 0) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("the request never waited on the audit lock");
    }
}
