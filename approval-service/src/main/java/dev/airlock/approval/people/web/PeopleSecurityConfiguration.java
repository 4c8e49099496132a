package dev.airlock.approval.people.web;

import dev.airlock.approval.people.AccessTokens;
import dev.airlock.approval.people.HumanDirectory;
import dev.airlock.approval.people.LoginThrottle;
import dev.airlock.approval.people.OidcRoles;
import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.config.TenantNames;
import dev.airlock.persistence.scope.Scopes;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.session.DisableEncodeUrlFilter;

/**
 * The people's filter chain, for the console and the approver and auditor APIs: form login (and
 * OpenID Connect where a provider is registered), sessions with CSRF, personal access tokens on
 * the API instead of a session, sign-in throttling, and a strict Content-Security-Policy. An agent
 * key opens nothing here. The agent side's chains, and the one for everything else, belong to the
 * application.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnSide(Side.CONSOLE)
class PeopleSecurityConfiguration {

    /** The console's Content-Security-Policy: only its own scripts and styles, no inline code, no framing. */
    static final String CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    @Bean
    @Order(2)
    SecurityFilterChain humans(
            HttpSecurity http,
            HumanDirectory people,
            AccessTokens tokens,
            LoginThrottle throttle,
            ObjectProvider<ClientRegistrationRepository> oidc,
            PeopleSettings properties,
            TenantNames tenants,
            Scopes scopes,
            java.time.Clock clock)
            throws Exception {
        ClientRegistrationRepository registrations = oidc.getIfAvailable();
        if (registrations != null) {
            OidcRegistrations.requireOpenId(registrations);
            OidcRoles roles = new OidcRoles(properties.oidc().rolesClaim(), tenants.names());
            http.oauth2Login(login -> login.loginPage("/login")
                    .defaultSuccessUrl("/console", true)
                    .userInfoEndpoint(userInfo -> userInfo.userAuthoritiesMapper(roles)));
        }
        http.securityMatcher(Side.CONSOLE.paths().toArray(String[]::new))
                .addFilterBefore(PersonScopeFilter.base(scopes), DisableEncodeUrlFilter.class)
                .addFilterBefore(PersonScopeFilter.caller(scopes), AuthorizationFilter.class)
                .addFilterAfter(
                        new SessionLifetime(properties.login().sessionMaxAge(), clock),
                        org.springframework.security.web.context.SecurityContextHolderFilter.class)
                .userDetailsService(people)
                .addFilterBefore(new AccessTokenAuthenticationFilter(tokens), CsrfFilter.class)
                .addFilterBefore(new CrossSiteReads(), CsrfFilter.class)
                .csrf(csrf -> csrf.ignoringRequestMatchers(AccessTokenAuthenticationFilter::authenticatedByToken))
                .authorizeHttpRequests(auth -> auth.requestMatchers("/login", "/css/**", "/js/**")
                        .permitAll()
                        .anyRequest()
                        .authenticated())
                .addFilterBefore(new LoginThrottleFilter(throttle), UsernamePasswordAuthenticationFilter.class)
                .formLogin(form -> form.loginPage("/login")
                        .permitAll()
                        .successHandler(LoginThrottleFilter.onSuccess(throttle, "/console"))
                        .failureHandler(LoginThrottleFilter.onFailure(throttle)))
                .logout(logout -> logout.logoutSuccessUrl("/login?logout"))
                .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(CONSOLE_CSP))
                        .frameOptions(frame -> frame.deny())
                        .referrerPolicy(
                                referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.NO_REFERRER)))
                .exceptionHandling(e -> e.defaultAuthenticationEntryPointFor(
                                PeopleProblems.unauthorized(),
                                PathPatternRequestMatcher.withDefaults().matcher("/api/**"))
                        .defaultAccessDeniedHandlerFor(
                                PeopleProblems.forbidden(),
                                PathPatternRequestMatcher.withDefaults().matcher("/api/**")));
        return http.build();
    }
}
