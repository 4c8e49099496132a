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
import org.springframework.test.web.servlet.assertj.MockMvcTester;

/**
 * The bound on waiting requests ({@code limits.concurrent-waits}): tenant {@code waits} may have
 * one request waiting for a run to end; another is answered at once with the run as it stands,
 * counted in {@code airlock.waits.refused}, and the place is free again once the first returns.
 * A request waiting for a run executing on its replica is woken by the run's end without reading
 * the run's state ({@code airlock.waits.state.reads}); one waiting for a parked run reads it.
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

    AgentApi api;

    @BeforeEach
    void setUp() {
        api = new AgentApi(mvc);
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
    void aRequestWaitingForARunNotExecutingHereReadsItsState() {
        String parked = api.park(KEY, "gated", "{}");
        double before = stateReads();

        AgentApi.Response read = api.get(KEY, "/api/v1/runs/" + parked + "?wait=PT1S");

        assertThat(read.text("state")).isEqualTo("PENDING_APPROVAL");
        assertThat(stateReads())
                .as("a run another replica may start and end is read while the request waits")
                .isGreaterThan(before);
        api.post(KEY, "/api/v1/runs/" + parked + "/cancel", "");
    }

    private double refused() {
        return TenantCounters.count(meters, "airlock.waits.refused", "waits");
    }

    private double stateReads() {
        return TenantCounters.count(meters, "airlock.waits.state.reads", "waits");
    }
}
