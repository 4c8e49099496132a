package dev.airlock.gateway.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What tests need to look at or tamper with the database behind the application's back: a
 * connection as the embedded server's superuser, which the application itself never uses (it
 * signs in as {@code airlock_app} and works as {@code airlock_gateway} or {@code airlock_console}).
 */
public final class OwnerDatabase {

    private OwnerDatabase() {
    }

    /** The superuser's view of the database of {@code context}'s embedded PostgreSQL. */
    public static JdbcClient jdbc(ApplicationContext context) {
        return JdbcClient.create(context.getBean(EmbeddedPostgres.class).getPostgresDatabase());
    }

    /** The superuser's {@code JdbcTemplate} for the database of {@code context}'s embedded PostgreSQL. */
    public static org.springframework.jdbc.core.JdbcTemplate template(ApplicationContext context) {
        return new org.springframework.jdbc.core.JdbcTemplate(context.getBean(EmbeddedPostgres.class).getPostgresDatabase());
    }
}
