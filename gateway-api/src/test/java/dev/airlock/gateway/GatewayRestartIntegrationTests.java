package dev.airlock.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.run.RunService;
import dev.airlock.gateway.support.TestSecrets;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.persistence.run.RunState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The default embedded PostgreSQL keeps its data directory: a run recorded before a restart is
 * there after it, and the server stops with the application.
 */
class GatewayRestartIntegrationTests {

    @TempDir
    Path dataDir;

    @Test
    void keepsRunsAcrossARestart() {
        AgentIdentity agent = new AgentIdentity("acme", "build-bot");
        UUID runId;
        try (ConfigurableApplicationContext first = start();
                var scope = first.getBean(dev.airlock.persistence.scope.Scopes.class)
                        .agent(agent.tenant())
                        .open()) {
            RunService runs = first.getBean(RunService.class);
            runId = runs.submit(agent, "echo", Map.of("message", "before restart"), null)
                    .run()
                    .id();
            assertThat(runs.await(agent, runId, Duration.ofSeconds(20)).state()).isEqualTo(RunState.COMPLETED);
        }
        assertThat(Files.exists(dataDir.resolve("postgres/postmaster.pid")))
                .as("server stopped")
                .isFalse();
        try (ConfigurableApplicationContext second = start();
                var scope = second.getBean(dev.airlock.persistence.scope.Scopes.class)
                        .agent(agent.tenant())
                        .open()) {
            RunService runs = second.getBean(RunService.class);
            assertThat(runs.find(agent, runId).state()).isEqualTo(RunState.COMPLETED);
        }
    }

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(AirlockApplication.class, TestSecrets.class)
                .profiles("test")
                .run("--airlock.data-dir=" + dataDir, "--server.port=0");
    }
}
