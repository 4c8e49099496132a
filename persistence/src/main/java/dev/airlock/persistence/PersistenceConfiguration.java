package dev.airlock.persistence;

import dev.airlock.persistence.scope.DatabaseScope;
import dev.airlock.persistence.scope.ScopedTransactionManager;
import jakarta.persistence.EntityManagerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizers;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Registers the entities and repositories of this module with the application that imports it.
 */
@Configuration(proxyBeanMethods = false)
@EntityScan(basePackageClasses = PersistenceConfiguration.class)
@EnableJpaRepositories(basePackageClasses = PersistenceConfiguration.class)
public class PersistenceConfiguration {

    /**
     * The transaction manager: JPA's, applying the thread's {@link DatabaseScope} (role and
     * tenants) at the start of every transaction.
     */
    @Bean
    PlatformTransactionManager transactionManager(
            EntityManagerFactory entityManagerFactory, ObjectProvider<TransactionManagerCustomizers> customizers) {
        ScopedTransactionManager manager = new ScopedTransactionManager(entityManagerFactory);
        customizers.ifAvailable(c -> c.customize(manager));
        return manager;
    }
}
