package dev.airlock.gateway.capture;

import dev.airlock.gateway.config.AirlockProperties;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The process supervisor and the secret source it reads injected secrets from. */
@Configuration(proxyBeanMethods = false)
class CaptureConfiguration {

    @Bean
    ProcessSupervisor processSupervisor(Clock clock, AirlockProperties properties) {
        return new ProcessSupervisor(clock, properties.capture().drainTimeout());
    }

    @Bean
    @ConditionalOnMissingBean
    SecretSource secretSource() {
        return SecretSource.environment();
    }
}
