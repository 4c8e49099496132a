package dev.airlock.approval.people;

import dev.airlock.approval.input.HumanText;
import dev.airlock.kernel.config.AirlockProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The configured people, for form login, and the bound on what people type. */
@Configuration(proxyBeanMethods = false)
class HumanConfiguration {

    @Bean
    HumanDirectory humanDirectory(AirlockProperties properties) {
        return HumanDirectory.from(properties);
    }

    @Bean
    HumanText humanText(AirlockProperties properties) {
        return new HumanText(properties.approvals().maxTextLength());
    }
}
