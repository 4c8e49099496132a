package dev.airlock.gateway.tenant;

import dev.airlock.kernel.config.AirlockProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Builds the agent directory from the configuration at start-up. */
@Configuration(proxyBeanMethods = false)
class TenantConfiguration {

    @Bean
    AgentDirectory agentDirectory(AirlockProperties properties) {
        return AgentDirectory.from(properties);
    }
}
