package dev.airlock.approval.people.web;

import dev.airlock.approval.people.Human;
import dev.airlock.approval.people.HumanDirectory;
import dev.airlock.persistence.scope.DatabaseRole;
import dev.airlock.persistence.scope.DatabaseScope;
import dev.airlock.persistence.scope.Scopes;
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
 * Opens the request's {@link DatabaseScope} on the people's side. The chain has two: the first, at
 * the very start, works as the console's role with no tenant (what authentication reads, personal
 * access tokens and sign-in lock-outs, is no tenant's data); the second, once the person is known,
 * narrows it to their tenants (every configured tenant for a platform administrator).
 */
final class PersonScopeFilter extends GenericFilterBean {

    private final Scopes scopes;
    private final boolean caller;

    private PersonScopeFilter(Scopes scopes, boolean caller) {
        this.scopes = scopes;
        this.caller = caller;
    }

    /** The filter at the start of the chain. */
    static PersonScopeFilter base(Scopes scopes) {
        return new PersonScopeFilter(scopes, false);
    }

    /** The filter after authentication. */
    static PersonScopeFilter caller(Scopes scopes) {
        return new PersonScopeFilter(scopes, true);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        DatabaseScope scope = caller ? callerScope() : DatabaseScope.of(DatabaseRole.CONSOLE, List.of());
        try (DatabaseScope.Handle handle = scope.open()) {
            chain.doFilter(request, response);
        }
    }

    private DatabaseScope callerScope() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null
                || !authentication.isAuthenticated()
                || authentication instanceof AnonymousAuthenticationToken) {
            return DatabaseScope.of(DatabaseRole.CONSOLE, List.of());
        }
        Human human = Human.of(authentication);
        return human.authorities().contains(HumanDirectory.PLATFORM_ADMIN)
                ? scopes.consoleJobs()
                : scopes.person(human.tenants());
    }
}
