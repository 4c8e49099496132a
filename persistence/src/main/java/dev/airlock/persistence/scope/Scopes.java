package dev.airlock.persistence.scope;

import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.config.TenantNames;
import java.util.Collection;
import java.util.List;

/**
 * The database scopes of this application (docs/database.md): an agent's requests and its runs'
 * execution work as the gateway role over the agent's tenant; a person's requests as the console
 * role over their tenants. Background jobs that span tenants (claiming approved runs, leases,
 * the spool, approval expiry, sign-in lock-outs) are the one narrow path over every configured
 * tenant; no request ever opens such a scope. Made only from a {@link CheckedLogin}, so that
 * no scope exists before the application's database login has passed its start-up check.
 */
public class Scopes {

    private final List<String> tenants;
    private final boolean console;

    /**
     * The scopes over the tenants {@code properties} configures, for the sides this replica runs.
     *
     * @param login the login check that has passed (it throws at start-up otherwise)
     */
    public Scopes(AirlockProperties properties, TenantNames tenantNames, CheckedLogin login) {
        java.util.Objects.requireNonNull(login, "the database login must be checked before scopes exist");
        this.tenants = List.copyOf(tenantNames.names());
        this.console = properties.roles().contains(Side.CONSOLE);
    }

    /** An agent of {@code tenant}, or the execution of its run. */
    public DatabaseScope agent(String tenant) {
        return DatabaseScope.of(DatabaseRole.GATEWAY, List.of(tenant));
    }

    /** A person whose roles name {@code personTenants}. */
    public DatabaseScope person(Collection<String> personTenants) {
        return DatabaseScope.of(DatabaseRole.CONSOLE, personTenants);
    }

    /** The agent side's background jobs, over every configured tenant. */
    public DatabaseScope gatewayJobs() {
        return DatabaseScope.of(DatabaseRole.GATEWAY, tenants);
    }

    /** The human side's background jobs, over every configured tenant. */
    public DatabaseScope consoleJobs() {
        return DatabaseScope.of(DatabaseRole.CONSOLE, tenants);
    }

    /**
     * Work either side does (registering the configuration at start-up, verifying the audit log,
     * counting pending approvals for metrics) over {@code scopeTenants}: as the console role where
     * this replica runs the console, else as the gateway role.
     */
    public DatabaseScope eitherSide(Collection<String> scopeTenants) {
        return DatabaseScope.of(console ? DatabaseRole.CONSOLE : DatabaseRole.GATEWAY, scopeTenants);
    }

    /** {@link #eitherSide} over every configured tenant. */
    public DatabaseScope eitherSide() {
        return eitherSide(tenants);
    }
}
