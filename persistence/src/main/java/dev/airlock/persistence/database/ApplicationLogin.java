package dev.airlock.persistence.database;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The application's login role on a PostgreSQL that Airlock administers itself (the embedded
 * default): what docs/database.md asks an operator to create by hand elsewhere.
 */
public final class ApplicationLogin {

    private ApplicationLogin() {}

    /**
     * Creates (or updates) the application's login role {@code login} with {@code password}:
     * {@code NOINHERIT}, so that it holds no privilege until a transaction assumes
     * {@code airlock_gateway} or {@code airlock_console}, which it is made a member of. The two
     * side roles are created here when missing, so that the login exists before the migrations
     * grant them their privileges.
     */
    public static void create(DataSource superuser, String login, String password) throws IOException {
        if (!login.matches("[a-z_][a-z0-9_]{0,62}") || !password.matches("[A-Za-z0-9_-]{16,}")) {
            throw new IllegalArgumentException(
                    "a login is a plain lower-case name, a password at least 16 base64url characters");
        }
        try (Connection connection = superuser.getConnection();
                Statement statement = connection.createStatement()) {
            for (String role : new String[] {"airlock_gateway", "airlock_console"}) {
                statement.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + role
                        + "') THEN " + "CREATE ROLE " + role + " NOLOGIN; END IF; END $$");
            }
            statement.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + login + "') THEN "
                    + "CREATE ROLE " + login + " LOGIN NOINHERIT; END IF; END $$");
            // Name and password are checked above, so they need no quoting or escaping.
            statement.execute(
                    "ALTER ROLE " + login + " LOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS "
                            + "PASSWORD '" + password + "'");
            statement.execute("GRANT airlock_gateway, airlock_console TO " + login);
        } catch (SQLException e) {
            throw new IOException("could not create the application's login role: " + e.getMessage(), e);
        }
    }
}
