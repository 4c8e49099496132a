package dev.airlock.gateway.security;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.tenant.AgentDirectory;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.persistence.scope.Scopes;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.session.DisableEncodeUrlFilter;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsConfigurationSource;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.CorsFilter;

/**
 * The application's filter chains: the MCP endpoint ({@code /mcp}), stateless with bearer agent
 * keys only after the Origin rule; the agent API ({@code /api/v1/tools}, {@code /api/v1/runs/**}),
 * stateless with bearer agent keys only; and everything else, where only health probes and the
 * API document are public. The people's chain (order 2) is the people's side's own
 * ({@code approval-service}); an agent key opens nothing there.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class SecurityConfiguration {

    /** The agent API's paths. */
    static final String[] AGENT_PATHS = {"/api/v1/tools/**", "/api/v1/runs/**"};

    /** The MCP endpoint's paths. */
    static final String[] MCP_PATHS = {"/mcp", "/mcp/**"};

    /**
     * {@code /mcp}: the Origin rule first (403 for a browser origin not allowed), then the agent key
     * exactly as for the agent API (401 with {@code WWW-Authenticate: Bearer} without one); no
     * session, cookie or personal access token counts. CORS answers preflights of allowed origins
     * only. The chain stays when the endpoint is disabled, so that {@code /mcp} is then a 404 to
     * agents and a 401 to everyone else, like any other path.
     */
    @Bean
    @Order(0)
    @dev.airlock.kernel.config.ConditionalOnSide(dev.airlock.kernel.config.Side.AGENT_API)
    SecurityFilterChain mcp(HttpSecurity http, AgentDirectory agents, AgentSettings properties, Scopes scopes)
            throws Exception {
        http.securityMatcher(MCP_PATHS)
                .logout(logout -> logout.disable())
                .cors(cors -> cors.configurationSource(mcpCors(properties.mcp().allowedOrigins())))
                .addFilterBefore(new McpOriginFilter(properties.mcp().allowedOrigins()), CorsFilter.class);
        return agentKeysOnly(http, agents, scopes).build();
    }

    /** Stateless, agent keys only: no session, CSRF, form or Basic login; 401/403 as problems. */
    private static HttpSecurity agentKeysOnly(HttpSecurity http, AgentDirectory agents, Scopes scopes)
            throws Exception {
        return http.csrf(csrf -> csrf.disable())
                .addFilterBefore(AgentScopeFilter.base(), DisableEncodeUrlFilter.class)
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.disable())
                .formLogin(form -> form.disable())
                .httpBasic(basic -> basic.disable())
                .addFilterBefore(new AgentKeyAuthenticationFilter(agents), AuthorizationFilter.class)
                // Registered after the key filter, so that it runs after it: the agent is known.
                .addFilterBefore(AgentScopeFilter.caller(scopes), AuthorizationFilter.class)
                .authorizeHttpRequests(auth -> auth.anyRequest().hasAuthority(AgentKeyAuthenticationFilter.AGENT_ROLE))
                .exceptionHandling(e -> e.authenticationEntryPoint(ProblemResponses.unauthorized())
                        .accessDeniedHandler(ProblemResponses.forbidden()));
    }

    private static CorsConfigurationSource mcpCors(List<String> allowedOrigins) {
        CorsConfiguration cors = new CorsConfiguration();
        cors.setAllowedOrigins(allowedOrigins);
        cors.setAllowedMethods(List.of("POST"));
        cors.setAllowedHeaders(
                List.of("Authorization", "Content-Type", "Accept", "MCP-Protocol-Version", "Last-Event-ID"));
        cors.setExposedHeaders(List.of("WWW-Authenticate"));
        cors.setAllowCredentials(false);
        cors.setMaxAge(600L);
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        source.registerCorsConfiguration("/mcp", cors);
        return source;
    }

    @Bean
    @Order(1)
    @dev.airlock.kernel.config.ConditionalOnSide(dev.airlock.kernel.config.Side.AGENT_API)
    SecurityFilterChain agentApi(HttpSecurity http, AgentDirectory agents, Scopes scopes) throws Exception {
        http.securityMatcher(AGENT_PATHS);
        return agentKeysOnly(http, agents, scopes).build();
    }

    /**
     * The Content-Security-Policy of everything outside the console: the API document and its
     * Swagger UI (which loads its own scripts and styles, and inline styles), probes and errors.
     */
    static final String OTHER_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
            + "base-uri 'none'";

    @Bean
    @Order(3)
    SecurityFilterChain everythingElse(HttpSecurity http, AirlockProperties properties) throws Exception {
        http.logout(logout -> logout.disable())
                .addFilterBefore(
                        new ScrapeTokenFilter(properties.metrics().scrapeTokenSha256()), AuthorizationFilter.class)
                .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(OTHER_CSP))
                        .frameOptions(frame -> frame.deny()))
                .csrf(csrf -> csrf.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .formLogin(form -> form.disable())
                .httpBasic(basic -> basic.disable())
                .authorizeHttpRequests(
                        auth -> auth.requestMatchers("/actuator/health/**", "/actuator/health", "/actuator/info")
                                .permitAll()
                                .requestMatchers("/actuator/prometheus")
                                .hasAuthority(ScrapeTokenFilter.SCRAPER)
                                .requestMatchers("/v3/api-docs/**", "/swagger-ui/**", "/swagger-ui.html")
                                .permitAll()
                                .requestMatchers("/error")
                                .permitAll()
                                // A side this replica does not run is not routed here at all: its paths are plain 404s.
                                .requestMatchers(otherSides(properties))
                                .permitAll()
                                .anyRequest()
                                .denyAll())
                .exceptionHandling(e -> e.authenticationEntryPoint(ProblemResponses.unauthorizedElsewhere())
                        .accessDeniedHandler(ProblemResponses.forbidden()));
        return http.build();
    }

    /**
     * A request the firewall refuses (a header or path with characters it does not accept, such as a
     * non-ASCII Idempotency-Key) is a 400, not a 500.
     */
    @Bean
    org.springframework.security.web.firewall.RequestRejectedHandler requestRejectedHandler() {
        return ProblemResponses.rejected();
    }

    /** Every request through {@link NoEscapesFirewall}: no path that reads one way encoded and another decoded. */
    @Bean
    org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer noEscapesInPaths() {
        return web -> web.httpFirewall(new NoEscapesFirewall());
    }

    /** Matches the paths of the sides this replica does not run (none when it runs both). */
    private static org.springframework.security.web.util.matcher.RequestMatcher otherSides(
            AirlockProperties properties) {
        java.util.List<String> paths = new java.util.ArrayList<>();
        for (dev.airlock.kernel.config.Side side : dev.airlock.kernel.config.Side.values()) {
            if (!properties.roles().contains(side)) {
                paths.addAll(side.paths());
            }
        }
        var matchers = paths.stream()
                .map(p -> PathPatternRequestMatcher.withDefaults().matcher(p))
                .toList();
        return request -> matchers.stream().anyMatch(m -> m.matches(request));
    }
}
