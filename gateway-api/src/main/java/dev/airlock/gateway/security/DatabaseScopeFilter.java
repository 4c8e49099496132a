package dev.airlock.gateway.security;

import dev.airlock.persistence.scope.Scopes;
import dev.airlock.approval.people.Human;
import dev.airlock.approval.people.HumanDirectory;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.persistence.scope.DatabaseRole;
import dev.airlock.persistence.scope.DatabaseScope;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.GenericFilterBean;

/**
 * Opens the request's {@link DatabaseScope}. Each chain has two: the first, at the very start,
 * names the chain's role and no tenant (what authentication itself reads, such as personal
 * access tokens and sign-in lock-outs, is not tenant data); the second, once the caller is
 * authenticated, narrows it to the caller's tenants: an agent's one tenant, a person's tenants
 * (every configured tenant for a platform administrator). Anyone else keeps no tenant.
 */
final class DatabaseScopeFilter extends GenericFilterBean {

    private final DatabaseRole role;
    private final Scopes scopes;
    private final boolean caller;

    private DatabaseScopeFilter(DatabaseRole role, Scopes scopes, boolean caller) {
        this.role = role;
        this.scopes = scopes;
        this.caller = caller;
    }

    /** The filter at the start of a chain of {@code role}. */
    static DatabaseScopeFilter base(DatabaseRole role, Scopes scopes) {
        return new DatabaseScopeFilter(role, scopes, false);
    }

    /** The filter after authentication in a chain of {@code role}. */
    static DatabaseScopeFilter caller(DatabaseRole role, Scopes scopes) {
        return new DatabaseScopeFilter(role, scopes, true);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        DatabaseScope scope = caller ? callerScope() : DatabaseScope.of(role, List.of());
        try (DatabaseScope.Handle handle = scope.open()) {
            chain.doFilter(request, response);
        }
    }

    private DatabaseScope callerScope() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null || !authentication.isAuthenticated() || authentication instanceof AnonymousAuthenticationToken) {
            return DatabaseScope.of(role, List.of());
        }
        if (role == DatabaseRole.GATEWAY) {
            return authentication.getPrincipal() instanceof AgentIdentity agent
                    ? scopes.agent(agent.tenant())
                    : DatabaseScope.of(role, List.of());
        }
        Human human = Human.of(authentication);
        return human.authorities().contains(HumanDirectory.PLATFORM_ADMIN)
                ? scopes.consoleJobs()
                : scopes.person(human.tenants());
    }
}
