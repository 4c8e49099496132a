package dev.airlock.kernel.config;

import java.util.List;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The two sides of Airlock, which one jar runs together or apart ({@code airlock.roles}): the
 * agent side ({@code agent-api}: the agent REST API and MCP, execution, the sandbox, run leases)
 * and the people's side ({@code console}: the console, the approver and auditor APIs, raw-access
 * grants, approval expiry, retention).
 */
public enum Side {
    /** {@code agent-api}: what agents reach, and the execution of their runs. */
    AGENT_API("/api/v1/tools/**", "/api/v1/runs/**", "/mcp", "/mcp/**"),
    /** {@code console}: what people reach, and the jobs that act on their records. */
    CONSOLE(
            "/",
            "/console/**",
            "/login",
            "/logout",
            "/css/**",
            "/js/**",
            "/api/v1/approvals/**",
            "/api/v1/audit/**",
            "/oauth2/**",
            "/login/oauth2/**");

    private final List<String> paths;

    Side(String... paths) {
        this.paths = List.of(paths);
    }

    /** The URL path patterns this side serves; a replica that does not run it answers them 404. */
    public List<String> paths() {
        return paths;
    }

    /** The property that lists the sides a replica runs. */
    public static final String PROPERTY = "airlock.roles";

    /**
     * The sides configured in {@code environment}; both when the property is unset.
     *
     * @throws InvalidConfigurationException when the list is empty
     */
    public static List<Side> configured(Environment environment) {
        List<Side> sides = Binder.get(environment)
                .bind(PROPERTY, Bindable.listOf(Side.class))
                .orElse(List.of(AGENT_API, CONSOLE));
        if (sides.isEmpty()) {
            throw new InvalidConfigurationException(PROPERTY, "name at least one of agent-api, console");
        }
        return sides;
    }
}
