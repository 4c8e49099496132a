package dev.airlock.gateway.tool;

import dev.airlock.kernel.config.AirlockProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Compiles the configured tools once, at start-up. */
@Configuration(proxyBeanMethods = false)
class ToolConfiguration {

    @Bean
    ToolCatalog toolCatalog(AirlockProperties properties) {
        return ToolCompiler.compile(properties);
    }
}
