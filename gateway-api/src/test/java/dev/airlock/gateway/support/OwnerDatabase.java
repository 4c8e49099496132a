package dev.airlock.gateway.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import javax.sql.DataSource;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What tests need to look at or tamper with the database behind the application's back: a
 * connection as the embedded server's superuser, which the application itself never uses (it
 * signs in as {@code airlock_app} and works as {@code airlock_gateway} or {@code airlock_console}).
 * Tests that import {@link TestDatabaseConfiguration} have it as a bean; tests that start their own
 * applications take it from each with {@link #of}.
 */
public final class OwnerDatabase {

    private final DataSource dataSource;
    private final JdbcClient jdbc;

    private OwnerDatabase(DataSource dataSource) {
        this.dataSource = dataSource;
        this.jdbc = JdbcClient.create(dataSource);
    }

    /** The superuser's view of the database of {@code context}'s embedded PostgreSQL. */
    public static OwnerDatabase of(ApplicationContext context) {
        return new OwnerDatabase(context.getBean(EmbeddedPostgres.class).getPostgresDatabase());
    }

    /** The superuser's view of {@code postgres}. */
    static OwnerDatabase of(EmbeddedPostgres postgres) {
        return new OwnerDatabase(postgres.getPostgresDatabase());
    }

    /** The superuser's {@link JdbcClient}. */
    public static JdbcClient jdbc(ApplicationContext context) {
        return of(context).jdbc;
    }

    /** A statement as the superuser. */
    public JdbcClient.StatementSpec sql(String sql) {
        return jdbc.sql(sql);
    }

    /** One value of a query as the superuser, {@link JdbcTemplate}-style. */
    public <T> T queryForObject(String sql, Class<T> type, Object... args) {
        return new JdbcTemplate(dataSource).queryForObject(sql, type, args);
    }

    /** The superuser's connections. */
    public DataSource dataSource() {
        return dataSource;
    }
}
