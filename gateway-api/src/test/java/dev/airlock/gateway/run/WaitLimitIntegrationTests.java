package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.limits.TenantLimits;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.TenantCounters;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

/**
 * The bound on waiting requests ({@code limits.concurrent-waits}): tenant {@code waits} may have
 * one request waiting for a run to end; another is answered at once with the run as it stands,
 * counted in {@code airlock.waits.refused}, and the place is free again once the first returns.
 * A request waiting for a run executing on its replica is woken by the run's end without reading
 * the run's state ({@code airlock.waits.state.reads}); one waiting for a run ended elsewhere is woken
 * by the database's announcement of the end ({@code LISTEN airlock_run_ended}) and reads it once, and
 * reads it every 200 ms while the replica's listening connection is lost.
 */
@AirlockIntegrationTest
class WaitLimitIntegrationTests {

    static final String KEY = "waits-bot-key";

    @Autowired
    MockMvcTester mvc;

    @Autowired
    MeterRegistry meters;

    @Autowired
    TenantLimits limits;

    @Autowired
    RunCompletions completions;

    @Autowired
    JdbcClient jdbc;

    AgentApi api;

    @Autowired
    RunExecutor executor;

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase owner;

    @BeforeEach
    void setUp() {
        api = new AgentApi(mvc);
        // Heard once this replica's connection listens and has heard itself (a fresh context may not be there yet).
        awaitUntil(completions::hearsEnds, "this replica hears runs' ends");
    }

    @Test
    void aTenantWithNoFreePlaceToWaitIsAnsweredAtOnceAndThePlaceComesBack() throws Exception {
        String first = api.park(KEY, "gated", "{}");
        String second = api.park(KEY, "gated", "{}");
        assertThat(limits.freeWaits("waits")).isEqualTo(1);
        double refusedBefore = refused();

        CompletableFuture<AgentApi.Response> waiting =
                CompletableFuture.supplyAsync(() -> api.get(KEY, "/api/v1/runs/" + first + "?wait=PT60S"));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (limits.freeWaits("waits") > 0 && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertThat(limits.freeWaits("waits"))
                .as("the first request holds the tenant's one place")
                .isZero();

        AgentApi.Response answered = api.get(KEY, "/api/v1/runs/" + second + "?wait=PT60S");
        assertThat(refused()).as("the second found no place and did not wait").isEqualTo(refusedBefore + 1);
        assertThat(answered.status()).isEqualTo(200);
        assertThat(answered.text("state")).isEqualTo("PENDING_APPROVAL");
        assertThat(waiting).as("the first request still waits").isNotDone();

        assertThat(api.post(KEY, "/api/v1/runs/" + first + "/cancel", "").status())
                .isEqualTo(200);
        assertThat(waiting.get(30, TimeUnit.SECONDS).text("state")).isEqualTo("CANCELLED");
        assertThat(limits.freeWaits("waits")).as("the place is given back").isEqualTo(1);
        api.post(KEY, "/api/v1/runs/" + second + "/cancel", "");
    }

    @Test
    void aRequestWaitingForARunExecutingHereIsWokenByItsEndWithoutReadingItsState() {
        double before = stateReads();
        AgentApi.Response waited = api.post(KEY, "/api/v1/runs?wait=PT30S", "{\"tool\":\"nap\",\"arguments\":{}}");
        assertThat(waited.text("state")).isEqualTo("COMPLETED");

        AgentApi.Response started = api.post(KEY, "/api/v1/runs", "{\"tool\":\"nap\",\"arguments\":{}}");
        // RUNNING unless this machine stalled for the nap's length (then the wait below has nothing to wait for).
        assertThat(started.text("state")).isIn("RUNNING", "COMPLETED");
        AgentApi.Response read = api.get(KEY, "/api/v1/runs/" + started.text("runId") + "?wait=PT30S");
        assertThat(read.text("state")).isEqualTo("COMPLETED");

        assertThat(stateReads())
                .as("a run executing here under its lease can only end here, which wakes its waiters: no poll")
                .isEqualTo(before);
    }

    @Test
    void aRequestWaitingForARunNotExecutingHereIsWokenByTheAnnouncementOfItsEnd() throws Exception {
        String parked = api.park(KEY, "gated", "{}");
        CompletableFuture<AgentApi.Response> waiting = waitFor(parked);
        double before = stateReads();

        // Ended by a transaction of its own (as another replica, a decision or an expiry would end it): the
        // database announces the end, and the request reads the run's state once. The tests' recheck interval
        // (application-test.yaml) outlasts the wait, so nothing else could have woken it.
        assertThat(api.post(KEY, "/api/v1/runs/" + parked + "/cancel", "").status())
                .isEqualTo(200);

        assertThat(waiting.get(30, TimeUnit.SECONDS).text("state")).isEqualTo("CANCELLED");
        assertThat(stateReads()).as("one read, after the announcement").isEqualTo(before + 1);
    }

    @Test
    void anAnnouncementIsACueToReadTheRunNeverItsEnd() throws Exception {
        String parked = api.park(KEY, "gated", "{}");
        CompletableFuture<AgentApi.Response> waiting = waitFor(parked);
        double before = stateReads();

        // Any role of the database may notify on any channel: what the request answers is what it reads.
        jdbc.sql("SELECT pg_notify('airlock_run_ended', 'not a run id')")
                .query(Object.class)
                .optional();
        jdbc.sql("SELECT pg_notify('airlock_run_ended', ?)")
                .param(parked)
                .query(Object.class)
                .optional();
        awaitUntil(() -> stateReads() >= before + 1, "the announced run is read");

        assertThat(waiting)
                .as("the run has not ended: the request goes on waiting")
                .isNotDone();
        assertThat(completions.watching(java.util.UUID.fromString(parked))).isEqualTo(1);
        assertThat(stateReads()).isEqualTo(before + 1);
        api.post(KEY, "/api/v1/runs/" + parked + "/cancel", "");
        assertThat(waiting.get(30, TimeUnit.SECONDS).text("state")).isEqualTo("CANCELLED");
    }

    @Test
    void aLostListeningConnectionMakesWaitersReadUntilItIsBackAndAnnouncementsWakeThemAgain() throws Exception {
        String parked = api.park(KEY, "gated", "{}");
        CompletableFuture<AgentApi.Response> waiting = waitFor(parked);
        Integer listening = listeningBackend();
        assertThat(listening).as("one connection listens").isNotNull();
        double before = stateReads();

        jdbc.sql("SELECT pg_terminate_backend(?)")
                .param(listening)
                .query(Object.class)
                .optional();

        // Lost: the request reads the run (an end while nobody listens is announced to no one here), every
        // 200 ms until a connection listens again, and once more then.
        awaitUntil(() -> stateReads() >= before + 3, "the waiting request reads while nobody listens");
        awaitUntil(
                () -> {
                    Integer now = listeningBackend();
                    return now != null && !now.equals(listening) && completions.hearsEnds();
                },
                "a new connection listens");
        assertThat(announced()).isEqualTo(1);

        assertThat(api.post(KEY, "/api/v1/runs/" + parked + "/cancel", "").status())
                .isEqualTo(200);
        assertThat(waiting.get(30, TimeUnit.SECONDS).text("state"))
                .as("woken by the announcement heard on the new connection")
                .isEqualTo("CANCELLED");
    }

    @Test
    void aReplicaWhoseDatabaseDoesNotAnnounceEndsHasItsWaitersReadEvery200Ms() throws Exception {
        owner.sql("ALTER TABLE airlock.runs DISABLE TRIGGER runs_announce_end").update();
        try {
            Integer before = listeningBackend();
            jdbc.sql("SELECT pg_terminate_backend(?)")
                    .param(before)
                    .query(Object.class)
                    .optional();
            awaitUntil(
                    () -> {
                        Integer now = listeningBackend();
                        return now != null && !now.equals(before);
                    },
                    "a new connection listens");
            String parked = api.park(KEY, "gated", "{}");
            CompletableFuture<AgentApi.Response> waiting = waitFor(parked);
            double reads = stateReads();

            // The schema announces nothing: the replica does not count on hearing ends, and its waiter reads.
            awaitUntil(() -> stateReads() >= reads + 5, "the waiting request reads every 200 ms");
            assertThat(completions.hearsEnds()).isFalse();
            assertThat(announced()).isZero();
            api.post(KEY, "/api/v1/runs/" + parked + "/cancel", "");
            assertThat(waiting.get(30, TimeUnit.SECONDS).text("state")).isEqualTo("CANCELLED");
        } finally {
            owner.sql("ALTER TABLE airlock.runs ENABLE TRIGGER runs_announce_end")
                    .update();
            // The replica looks again within a minute; a new connection looks at once.
            awaitUntil(() -> listeningBackend() != null, "a connection listens");
            jdbc.sql("SELECT pg_terminate_backend(?)")
                    .param(listeningBackend())
                    .query(Object.class)
                    .optional();
            awaitUntil(completions::hearsEnds, "this replica hears runs' ends again");
        }
    }

    /** A request waiting for {@code runId}, once it is watching it. */
    private CompletableFuture<AgentApi.Response> waitFor(String runId) {
        CompletableFuture<AgentApi.Response> waiting =
                CompletableFuture.supplyAsync(() -> api.get(KEY, "/api/v1/runs/" + runId + "?wait=PT60S"));
        awaitUntil(() -> completions.watching(java.util.UUID.fromString(runId)) == 1, "the request watches the run");
        return waiting;
    }

    private @org.jspecify.annotations.Nullable Integer listeningBackend() {
        return jdbc.sql("SELECT pid FROM pg_stat_activity WHERE application_name = ?")
                .param(RunNotificationListener.APPLICATION_NAME + executor.node())
                .query(Integer.class)
                .optional()
                .orElse(null);
    }

    private double announced() {
        return meters.get("airlock.waits.announced").gauge().value();
    }

    private static void awaitUntil(java.util.function.BooleanSupplier condition, String what) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(until);
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private double refused() {
        return TenantCounters.count(meters, "airlock.waits.refused", "waits");
    }

    private double stateReads() {
        return TenantCounters.count(meters, "airlock.waits.state.reads", "waits");
    }
}
