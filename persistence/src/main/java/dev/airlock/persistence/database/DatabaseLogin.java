package dev.airlock.persistence.database;

import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.Side;
import dev.airlock.persistence.scope.CheckedLogin;
import dev.airlock.persistence.scope.DatabaseRole;
import dev.airlock.persistence.scope.Scopes;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Refuses to start on a database login that would make the roles meaningless: a superuser, a
 * role that bypasses row-level security, the owner of Airlock's tables (or a member of it), or a
 * login that cannot assume the role of a side this replica runs. Checked once the migrations
 * have run, before any other work touches the database (every user of {@link Scopes} waits for it).
 */
@Component
@DependsOnDatabaseInitialization
public class DatabaseLogin implements CheckedLogin {

    private static final Logger log = LoggerFactory.getLogger(DatabaseLogin.class);

    DatabaseLogin(JdbcClient jdbc, AirlockProperties properties) {
        List<String> problems = new ArrayList<>();
        var facts = jdbc.sql("""
                SELECT current_user, r.rolsuper
                           OR EXISTS (SELECT 1 FROM pg_roles p WHERE p.rolsuper AND pg_has_role(current_user, p.oid, 'MEMBER')),
                       r.rolbypassrls
                           OR EXISTS (SELECT 1 FROM pg_roles p WHERE p.rolbypassrls AND pg_has_role(current_user, p.oid, 'MEMBER')),
                       r.rolinherit,
                       EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                                WHERE n.nspname IN ('airlock', 'restricted')
                                  AND pg_has_role(current_user, c.relowner, 'MEMBER')),
                       r.rolcreaterole
                  FROM pg_roles r WHERE r.rolname = current_user""")
                .query((rs, n) -> new Facts(
                        rs.getString(1),
                        rs.getBoolean(2),
                        rs.getBoolean(3),
                        rs.getBoolean(4),
                        rs.getBoolean(5),
                        rs.getBoolean(6)))
                .single();
        if (facts.superuser()) {
            problems.add(facts.login() + " is (or may become) a superuser, which no grant or row-level security binds");
        }
        if (facts.bypassesRls()) {
            problems.add(facts.login() + " bypasses (or may become a role that bypasses) row-level security");
        }
        if (facts.owner()) {
            problems.add(facts.login() + " owns, or is a member of the owner of, Airlock's tables (the owner runs the"
                    + " migrations only)");
        }
        if (facts.createsRoles()) {
            problems.add(facts.login() + " may create roles, and so grant itself other roles' privileges");
        }
        for (Side side : properties.roles()) {
            DatabaseRole role = side == Side.AGENT_API ? DatabaseRole.GATEWAY : DatabaseRole.CONSOLE;
            if (!mayAssume(jdbc, role)) {
                problems.add(facts.login() + " cannot assume " + role.roleName() + ", which the "
                        + side.name().toLowerCase().replace('_', '-') + " side works as (GRANT " + role.roleName()
                        + " TO " + facts.login() + ")");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException(
                    "Airlock will not work with this database login: " + String.join("; ", problems)
                            + ". Sign in as a role that may only assume airlock_gateway and/or airlock_console (docs/database.md).");
        }
        if (properties.roles().size() == 1) {
            DatabaseRole other =
                    properties.roles().contains(Side.AGENT_API) ? DatabaseRole.CONSOLE : DatabaseRole.GATEWAY;
            if (mayAssume(jdbc, other)) {
                log.warn(
                        "Database login {} runs one side but may also assume {}: a split deployment gives each side a login"
                                + " of its own (docs/database.md)",
                        facts.login(),
                        other.roleName());
            }
        }
        if (facts.inherits() && properties.roles().size() > 1) {
            log.warn(
                    "Database login {} inherits its roles' privileges: outside a transaction's scope it holds both sides'"
                            + " privileges; make it NOINHERIT (docs/database.md)",
                    facts.login());
        }
    }

    private static boolean mayAssume(JdbcClient jdbc, DatabaseRole role) {
        return jdbc.sql(
                        "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :role) AND pg_has_role(current_user, :role, 'MEMBER')")
                .param("role", role.roleName())
                .query(Boolean.class)
                .single();
    }

    private record Facts(
            String login,
            boolean superuser,
            boolean bypassesRls,
            boolean inherits,
            boolean owner,
            boolean createsRoles) {}
}
