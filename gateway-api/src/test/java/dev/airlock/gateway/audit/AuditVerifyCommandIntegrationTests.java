package dev.airlock.gateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.approval.audit.AuditVerifyCommand;
import dev.airlock.gateway.AirlockApplication;
import dev.airlock.gateway.run.RunService;
import dev.airlock.gateway.support.TestSecrets;
import dev.airlock.gateway.tenant.AgentIdentity;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The verification command on a real database: exit 0 for intact chains, 1 with the break named. */
class AuditVerifyCommandIntegrationTests {

    @TempDir
    Path dataDir;

    @Test
    void reportsIntactChainsAndExitsOneOnABreak() {
        try (ConfigurableApplicationContext app = start()) {
            RunService runs = app.getBean(RunService.class);
            AgentIdentity agent = new AgentIdentity("globex", "bot");
            try (var scope = app.getBean(dev.airlock.persistence.scope.Scopes.class)
                    .agent(agent.tenant())
                    .open()) {
                for (int i = 0; i < 2; i++) {
                    var id = runs.submit(agent, "echo", Map.of("message", "m" + i), null)
                            .run()
                            .id();
                    runs.await(agent, id, Duration.ofSeconds(20));
                }
            }
        }
        Outcome intact = verify("*");
        assertThat(intact.exitCode()).isZero();
        assertThat(intact.output())
                .contains("audit chain of globex: intact, 7 event(s)", "audit chain of acme: intact, 1 event(s)");

        // A misspelled tenant has no chain: not "intact, 0 event(s)" and exit 0, which checked nothing.
        Outcome misspelled = verify("acme,globexx");
        assertThat(misspelled.exitCode()).isEqualTo(2);
        assertThat(misspelled.output())
                .contains("audit chain of acme: intact", "audit chain of globexx: NOT FOUND")
                .doesNotContain("globexx: intact");

        try (ConfigurableApplicationContext app = start()) {
            JdbcClient jdbc = dev.airlock.gateway.support.OwnerDatabase.jdbc(app);
            jdbc.sql("ALTER TABLE airlock.audit_events DISABLE TRIGGER audit_events_append_only")
                    .update();
            jdbc.sql("DELETE FROM airlock.audit_events WHERE tenant = 'globex' AND seq = 3")
                    .update();
            jdbc.sql("ALTER TABLE airlock.audit_events ENABLE TRIGGER audit_events_append_only")
                    .update();
        }
        Outcome broken = verify("globex");
        assertThat(broken.exitCode()).isEqualTo(1);
        assertThat(broken.output())
                .contains("audit chain of globex: BROKEN at event 4 (event 3 is missing); 2 event(s) verified");
        Outcome brokenAndMisspelled = verify("globexx,globex");
        assertThat(brokenAndMisspelled.exitCode())
                .as("a broken chain outranks a name not found")
                .isEqualTo(1);
    }

    record Outcome(int exitCode, String output) {}

    private Outcome verify(String tenants) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(
                        AirlockApplication.class, TestSecrets.class)
                .profiles("test")
                .web(org.springframework.boot.WebApplicationType.NONE)
                .initializers(context -> context.getBeanFactory()
                        .addBeanPostProcessor(new org.springframework.beans.factory.config.BeanPostProcessor() {
                            @Override
                            public Object postProcessAfterInitialization(Object bean, String name) {
                                if (bean instanceof AuditVerifyCommand command) {
                                    command.printTo(new PrintStream(out, true, StandardCharsets.UTF_8));
                                }
                                return bean;
                            }
                        }))
                .run("--airlock.data-dir=" + dataDir, "--airlock.audit.verify=" + tenants)) {
            return new Outcome(SpringApplication.exit(app), out.toString(StandardCharsets.UTF_8));
        }
    }

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(AirlockApplication.class, TestSecrets.class)
                .profiles("test")
                .run("--airlock.data-dir=" + dataDir, "--server.port=0");
    }
}
