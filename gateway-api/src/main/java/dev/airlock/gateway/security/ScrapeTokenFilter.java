package dev.airlock.gateway.security;

import dev.airlock.kernel.digest.Sha256;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Lets Prometheus scrape {@code /actuator/prometheus} with a bearer token whose SHA-256 is
 * configured ({@code airlock.metrics.scrape-token-sha256}); with none configured, nobody may.
 * The token opens nothing else.
 */
final class ScrapeTokenFilter extends OncePerRequestFilter {

    static final String SCRAPER = "METRICS_SCRAPER";

    private final byte @Nullable [] expected;

    ScrapeTokenFilter(@Nullable String tokenSha256) {
        this.expected = tokenSha256 == null ? null : tokenSha256.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (expected != null
                && header != null
                && header.startsWith("Bearer ")
                && request.getRequestURI().equals(request.getContextPath() + "/actuator/prometheus")) {
            byte[] presented =
                    Sha256.hex(header.substring("Bearer ".length()).strip()).getBytes(StandardCharsets.US_ASCII);
            if (MessageDigest.isEqual(presented, expected)) {
                var context = SecurityContextHolder.createEmptyContext();
                context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                        "prometheus", null, List.of(new SimpleGrantedAuthority(SCRAPER))));
                SecurityContextHolder.setContext(context);
            }
        }
        chain.doFilter(request, response);
    }
}
