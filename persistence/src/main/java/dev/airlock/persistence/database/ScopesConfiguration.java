package dev.airlock.persistence.database;

import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.persistence.scope.Scopes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Defines the database scopes after the login check, so that nothing opens a scope on a login {@link DatabaseLogin} refuses. */
@Configuration(proxyBeanMethods = false)
class ScopesConfiguration {

    @Bean
    Scopes scopes(AirlockProperties properties, dev.airlock.kernel.config.TenantNames tenants, DatabaseLogin login) {
        return new Scopes(properties, tenants, login);
    }
}
