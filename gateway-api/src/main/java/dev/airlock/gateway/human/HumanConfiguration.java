package dev.airlock.gateway.human;

import dev.airlock.gateway.config.AirlockProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The configured people, for form login. */
@Configuration(proxyBeanMethods = false)
class HumanConfiguration {

    @Bean
    HumanDirectory humanDirectory(AirlockProperties properties) {
        return HumanDirectory.from(properties);
    }
}
