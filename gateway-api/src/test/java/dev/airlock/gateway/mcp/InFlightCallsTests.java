package dev.airlock.gateway.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.tenant.AgentIdentity;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which run a client's notifications/cancelled means, when it means exactly one. */
class InFlightCallsTests {

    private final InFlightCalls calls = new InFlightCalls();
    private final InFlightCalls.Key key = new InFlightCalls.Key(new AgentIdentity("acme", "bot"), "7");

    @Test
    void aCancellationBeforeTheRunExistsIsKeptForTheRunAndOneAfterItNamesTheRun() {
        InFlightCalls.Call call = calls.begin(key);
        assertThat(calls.sole(key).orElseThrow().requestCancel()).isEmpty();
        UUID run = UUID.randomUUID();
        assertThat(call.runStarted(run)).as("the run learns it was cancelled").isTrue();

        InFlightCalls.Call later = calls.begin(new InFlightCalls.Key(key.agent(), "8"));
        assertThat(later.runStarted(run)).isFalse();
        assertThat(later.requestCancel()).contains(run);
    }

    @Test
    void anIdSharedByTwoCallsInFlightOrByAnotherAgentCancelsNothing() {
        InFlightCalls.Call first = calls.begin(key);
        InFlightCalls.Call second = calls.begin(key);
        first.runStarted(UUID.randomUUID());
        second.runStarted(UUID.randomUUID());
        assertThat(calls.sole(key)).isEmpty();
        assertThat(calls.count(key)).isEqualTo(2);
        assertThat(calls.sole(new InFlightCalls.Key(new AgentIdentity("acme", "other"), "7")))
                .isEmpty();
        assertThat(calls.sole(new InFlightCalls.Key(key.agent(), "\"7\"")))
                .as("the string \"7\" is not the number 7")
                .isEmpty();

        calls.end(key, first);
        assertThat(calls.sole(key)).contains(second);
        calls.end(key, second);
        assertThat(calls.sole(key)).isEmpty();
        assertThat(calls.count(key)).isZero();
    }
}
