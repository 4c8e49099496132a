package dev.airlock.approval.people.web;

import dev.airlock.approval.people.AccessTokens;
import dev.airlock.approval.people.TokenPrincipal;
import dev.airlock.approval.people.TokenScope;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * On the humans' side, a request is authenticated either by a bearer token or by its session,
 * never by both. A request with an {@code Authorization} header is judged by that header alone:
 * it must be a valid, unexpired personal access token ({@code alp_...}) on an API path whose
 * scope the token carries (401 otherwise, 403 for a missing scope), and its cookies are ignored.
 * Only a request this filter authenticated skips the CSRF check; a session request always has it.
 * Runs before the CSRF filter, so a made-up header cannot switch CSRF off.
 */
final class AccessTokenAuthenticationFilter extends OncePerRequestFilter {

    private static final String AUTHENTICATED = AccessTokenAuthenticationFilter.class.getName() + ".AUTHENTICATED";

    private final AccessTokens tokens;

    AccessTokenAuthenticationFilter(AccessTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (header == null) {
            chain.doFilter(request, response);
            return;
        }
        // The decoded path, as the security matchers and MVC route it: a scope is never decided on a
        // spelling of the path other than the one the request is served by.
        String path = org.springframework.web.util.UrlPathHelper.defaultInstance.getPathWithinApplication(request);
        if (!header.startsWith("Bearer ") || !path.startsWith("/api/")) {
            PeopleProblems.invalidToken(response);
            return;
        }
        Optional<TokenPrincipal> principal =
                tokens.authenticate(header.substring("Bearer ".length()).strip());
        if (principal.isEmpty()) {
            PeopleProblems.invalidToken(response);
            return;
        }
        Optional<TokenScope> needed = TokenScope.requiredFor(request.getMethod(), path);
        if (needed.isEmpty() || !principal.get().scopes().contains(needed.get())) {
            PeopleProblems.insufficientScope(
                    response, needed.map(TokenScope::text).orElse(null));
            return;
        }
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                principal.get(),
                null,
                principal.get().authorities().stream()
                        .map(SimpleGrantedAuthority::new)
                        .toList()));
        SecurityContextHolder.setContext(context);
        request.setAttribute(AUTHENTICATED, Boolean.TRUE);
        chain.doFilter(request, response);
    }

    /** Whether this filter authenticated the request by its token (such requests carry no cookie authority). */
    static boolean authenticatedByToken(HttpServletRequest request) {
        return Boolean.TRUE.equals(request.getAttribute(AUTHENTICATED));
    }
}
