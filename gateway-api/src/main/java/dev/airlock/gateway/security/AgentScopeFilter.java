package dev.airlock.gateway.security;

import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.persistence.scope.DatabaseRole;
import dev.airlock.persistence.scope.DatabaseScope;
import dev.airlock.persistence.scope.Scopes;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.GenericFilterBean;

/**
 * Opens the request's {@link DatabaseScope} on the agent side. Each agent chain has two: the
 * first, at the very start, works as the gateway's role with no tenant; the second, once the agent
 * is authenticated, narrows it to the agent's one tenant. A caller who is no agent keeps no tenant.
 */
final class AgentScopeFilter extends GenericFilterBean {

    private final @Nullable Scopes scopes;

    private AgentScopeFilter(@Nullable Scopes scopes) {
        this.scopes = scopes;
    }

    /** The filter at the start of a chain. */
    static AgentScopeFilter base() {
        return new AgentScopeFilter(null);
    }

    /** The filter after authentication. */
    static AgentScopeFilter caller(Scopes scopes) {
        return new AgentScopeFilter(scopes);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        try (DatabaseScope.Handle handle = scope().open()) {
            chain.doFilter(request, response);
        }
    }

    private DatabaseScope scope() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (scopes != null
                && authentication != null
                && authentication.isAuthenticated()
                && authentication.getPrincipal() instanceof AgentIdentity agent) {
            return scopes.agent(agent.tenant());
        }
        return DatabaseScope.of(DatabaseRole.GATEWAY, List.of());
    }
}
