package dev.airlock.gateway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.AirlockApplication;
import dev.airlock.gateway.support.OwnerDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A replica refuses to start on a database login that would void the roles (docs/database.md):
 * the superuser, or a login that cannot assume its side's role; the embedded default's own
 * login is a {@code NOINHERIT} role that owns nothing.
 */
class DatabaseLoginIntegrationTests {

    @TempDir
    static Path work;

    private static ConfigurableApplicationContext first;
    private static String url;

    @BeforeAll
    static void start() {
        first = new SpringApplicationBuilder(AirlockApplication.class)
                .profiles("test")
                .run("--airlock.data-dir=" + work.resolve("first"), "--server.port=0", "--airlock.node-id=first");
        url = "jdbc:postgresql://localhost:"
                + first.getBean(EmbeddedPostgres.class).getPort() + "/postgres";
    }

    @AfterAll
    static void stop() {
        if (first != null) {
            first.close();
        }
    }

    @Test
    void theEmbeddedDefaultSignsInAsALoginThatOwnsNothingAndInheritsNothing() {
        assertThat(first.getBean(JdbcConnectionDetails.class).getUsername()).isEqualTo("airlock_app");
        assertThat(OwnerDatabase.jdbc(first)
                        .sql("SELECT rolsuper::text || rolinherit::text || rolbypassrls::text"
                                + " FROM pg_roles WHERE rolname = 'airlock_app'")
                        .query(String.class)
                        .single())
                .isEqualTo("falsefalsefalse");
    }

    @Test
    void theSuperuserIsRefused() {
        String password = first.getBean(EmbeddedPostgres.class).getPostgresDatabase()
                        instanceof org.postgresql.ds.PGSimpleDataSource ds
                ? ds.getPassword()
                : "";
        assertRefused("may become) a superuser", "postgres", password);
    }

    @Test
    void aLoginThatCannotAssumeItsSidesRoleIsRefusedWithTheGrantToRun() {
        OwnerDatabase.jdbc(first)
                .sql(
                        "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'airlock_stranger')"
                                + " THEN CREATE ROLE airlock_stranger LOGIN PASSWORD 'stranger-password-0123456789'; END IF; END $$")
                .update();
        assertRefused(
                "GRANT airlock_gateway TO airlock_stranger",
                "airlock_stranger",
                "stranger-password-0123456789",
                "--airlock.roles=agent-api");
    }

    private static void assertRefused(String message, String login, String password, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "--airlock.data-dir=" + work.resolve("refused-" + login),
                "--server.port=0",
                "--airlock.node-id=refused",
                "--spring.datasource.url=" + url,
                "--spring.datasource.username=" + login,
                "--spring.datasource.password=" + password,
                "--spring.flyway.enabled=false"));
        args.addAll(List.of(extra));
        assertThatThrownBy(() -> new SpringApplicationBuilder(AirlockApplication.class)
                        .profiles("test")
                        .run(args.toArray(String[]::new))
                        .close())
                .rootCause()
                .hasMessageContaining("Airlock will not work with this database login")
                .hasMessageContaining(message);
    }
}
