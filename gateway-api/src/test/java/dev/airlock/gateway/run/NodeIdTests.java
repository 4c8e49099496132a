package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A replica's default node id, and the key of the lock that keeps a node id one live replica's. */
class NodeIdTests {

    @Test
    void replicasOnOneHostGetDifferentNodeIdsByTheirPorts() {
        String onDefaultPort = RunExecutor.defaultNode("8080");
        assertThat(onDefaultPort).endsWith(":8080");
        assertThat(RunExecutor.defaultNode("8081")).endsWith(":8081").isNotEqualTo(onDefaultPort);
        assertThat(RunExecutor.defaultNode("8080"))
                .as("stable across restarts of one replica")
                .isEqualTo(onDefaultPort);
        assertThat(RunExecutor.defaultNode("0"))
                .as("a port chosen at start: the process stands in for it")
                .endsWith(":pid" + ProcessHandle.current().pid());
    }

    @Test
    void eachNodeIdLocksItsOwnKey() {
        assertThat(NodeLock.key("gateway-0")).isEqualTo(NodeLock.key("gateway-0"));
        assertThat(NodeLock.key("gateway-0")).isNotEqualTo(NodeLock.key("gateway-1"));
        assertThat(NodeLock.key("")).isNotEqualTo(NodeLock.key("gateway-0"));
    }
}
