package dev.airlock.gateway.capture;

import dev.airlock.gateway.settings.AgentSettings;
import java.nio.file.Path;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The sandbox, the process supervisor and the secret source it reads injected secrets from. */
@Configuration(proxyBeanMethods = false)
class CaptureConfiguration {

    /** Checked when it is made: with {@code bubblewrap} and no working bwrap the gateway does not start. */
    @Bean(destroyMethod = "close")
    Sandbox sandbox(AgentSettings properties) {
        Path root =
                properties.sandbox().workDir() != null ? properties.sandbox().workDir() : WorkArea.defaultRoot();
        WorkArea work = WorkArea.open(root);
        try {
            return Sandbox.of(properties.sandbox(), properties.capture().path(), work);
        } catch (RuntimeException e) {
            work.close();
            throw e;
        }
    }

    @Bean
    ProcessSupervisor processSupervisor(Clock clock, AgentSettings properties, Sandbox sandbox) {
        return new ProcessSupervisor(clock, properties.capture().drainTimeout(), sandbox);
    }

    @Bean
    @ConditionalOnMissingBean
    SecretSource secretSource() {
        return SecretSource.environment();
    }
}
