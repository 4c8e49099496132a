package dev.airlock.kernel.config;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The settings both sides read, the names of every configured tenant, and the check that every
 * {@code airlock.*} key is one that some settings record takes. Each side registers its own record.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AirlockProperties.class)
public class SettingsConfiguration {

    /** Runs before any bean is made, so that an unknown key is the first thing the start says. */
    @Bean
    static StrictSettings strictSettings(Environment environment) {
        return new StrictSettings(environment);
    }

    @Bean
    MigrateOnlyIsACommand migrateOnlyIsACommand(AirlockProperties properties) {
        return new MigrateOnlyIsACommand(properties);
    }

    @Bean
    TenantNames tenantNames(Environment environment) {
        return TenantNames.of(environment);
    }
}
