package dev.airlock.persistence;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Import;

/**
 * This module's record alone, as the application wires it (entities, repositories, stores), on a real
 * PostgreSQL: an embedded server started for the tests in a fresh data directory, migrated by
 * Flyway with the module's own migrations. Integration tests here share this one context.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
// The application's own database bootstrap (embedded server, login check, scopes) and its start-up audit of the
// configuration (which runs in those scopes) are not this module's test setup.
@ComponentScan(
        basePackageClasses = PersistenceConfiguration.class,
        excludeFilters =
                @ComponentScan.Filter(
                        type = org.springframework.context.annotation.FilterType.REGEX,
                        pattern = {
                            "dev\\.airlock\\.persistence\\.database\\..*",
                            "dev\\.airlock\\.persistence\\.tenant\\.ConfigurationAudit"
                        }))
@Import(PersistenceConfiguration.class)
public class PersistenceTestApplication {

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres() throws IOException {
        return EmbeddedPostgres.builder().start();
    }

    @Bean
    JdbcConnectionDetails embeddedPostgresConnection(EmbeddedPostgres postgres) {
        String url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
        return new JdbcConnectionDetails() {
            @Override
            public String getUsername() {
                return "postgres";
            }

            @Override
            public String getPassword() {
                return "";
            }

            @Override
            public String getJdbcUrl() {
                return url;
            }
        };
    }
}
