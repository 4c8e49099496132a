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
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestDatabaseConfiguration {

    @Bean
    @ServiceConnection
    @Conditional(DockerAvailable.class)
    PostgreSQLContainer postgres() {
        return new PostgreSQLContainer("postgres:17-alpine");
    }
}
