package dev.airlock.gateway.security;

import dev.airlock.gateway.tenant.AgentDirectory;
import dev.airlock.gateway.tenant.AgentIdentity;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code Authorization: Bearer <agent key>}: the key is hashed and looked up; the
 * key itself is neither kept nor logged. A request without a known key stays anonymous and is
 * refused by the authorization rules with 401.
 */
final class AgentKeyAuthenticationFilter extends OncePerRequestFilter {

    static final String AGENT_ROLE = "ROLE_AGENT";
    private static final String BEARER = "Bearer ";

    private final AgentDirectory agents;

    AgentKeyAuthenticationFilter(AgentDirectory agents) {
        this.agents = agents;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            String key = header.substring(BEARER.length()).strip();
            Optional<AgentIdentity> agent = key.isEmpty() ? Optional.empty() : agents.authenticate(key);
            agent.ifPresent(a -> {
                var context = SecurityContextHolder.createEmptyContext();
                context.setAuthentication(new AgentAuthentication(a));
                SecurityContextHolder.setContext(context);
            });
        }
        try {
            chain.doFilter(request, response);
        } finally {
            SecurityContextHolder.clearContext();
        }
    }

    /** An authenticated agent; its principal is the {@link AgentIdentity}. */
    static final class AgentAuthentication extends AbstractAuthenticationToken {

        private static final long serialVersionUID = 1L;

        private final AgentIdentity agent;

        AgentAuthentication(AgentIdentity agent) {
            super(List.of(new SimpleGrantedAuthority(AGENT_ROLE)));
            this.agent = agent;
            setAuthenticated(true);
        }

        @Override
        public Object getCredentials() {
            return "";
        }

        @Override
        public AgentIdentity getPrincipal() {
            return agent;
        }

        @Override
        public String getName() {
            return agent.tenant() + "/" + agent.agent();
        }
    }
}
