package dev.airlock.gateway.support;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The one place that decides which PostgreSQL the tests use: a Testcontainers PostgreSQL 17
 * where a Docker engine answers, otherwise nothing here, so that the gateway starts its own
 * embedded PostgreSQL (a real server too) in a fresh data directory.
 *
 * <p>The embedded server is the path these tests take here and in CI: it migrates as its
 * superuser and signs the application in as {@code airlock_app}. Where a Docker engine answers,
 * the container's user is a superuser, which the application refuses as its login
 * (docs/database.md); that path needs an application login created in the container first.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestDatabaseConfiguration {

    /** The database behind the application's back, as its superuser (embedded server only). */
    @Bean
    @org.springframework.context.annotation.Lazy
    OwnerDatabase ownerDatabase(io.zonky.test.db.postgres.embedded.EmbeddedPostgres postgres) {
        return OwnerDatabase.of(postgres);
    }

    @Bean
    @ServiceConnection
    @Conditional(DockerAvailable.class)
    PostgreSQLContainer postgres() {
        return new PostgreSQLContainer("postgres:17-alpine");
    }
}
