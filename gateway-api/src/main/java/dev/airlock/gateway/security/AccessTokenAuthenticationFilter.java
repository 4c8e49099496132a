package dev.airlock.gateway.security;

import dev.airlock.gateway.human.AccessTokens;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates a bot on the approver API by a person's access token
 * ({@code Authorization: Bearer alp_...}); it acts with that person's roles. Agent keys are not
 * access tokens and authenticate nothing here.
 */
final class AccessTokenAuthenticationFilter extends OncePerRequestFilter {

    static final String BEARER_TOKEN = "Bearer " + AccessTokens.PREFIX;

    private final AccessTokens tokens;

    AccessTokenAuthenticationFilter(AccessTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (header != null && header.startsWith(BEARER_TOKEN) && request.getRequestURI().startsWith("/api/")) {
            // A token request is judged by its token alone, never by a session cookie that came with it.
            var context = SecurityContextHolder.createEmptyContext();
            tokens.authenticate(header.substring("Bearer ".length()).strip()).ifPresent(person ->
                    context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(person.getUsername(), null,
                            person.getAuthorities())));
            SecurityContextHolder.setContext(context);
        }
        chain.doFilter(request, response);
    }

    /** Whether the request carries an access token (such requests need no CSRF token: no cookie is involved). */
    static boolean carriesToken(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return header != null && header.startsWith(BEARER_TOKEN);
    }
}
