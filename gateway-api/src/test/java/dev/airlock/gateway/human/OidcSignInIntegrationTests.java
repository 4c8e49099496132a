package dev.airlock.gateway.human;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.StubIdentityProvider;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * Sign-in through an OpenID Connect provider, end to end: the sign-in page sends the person to
 * the provider ({@link StubIdentityProvider}, a real HTTP server in the test), the provider sends
 * them back with a code, and the gateway's own security configuration redeems the code, checks
 * the RS256 ID token against the provider's key set, fetches userinfo and maps the roles claim
 * to Airlock's roles.
 */
@AirlockIntegrationTest
class OidcSignInIntegrationTests {

    private final StubIdentityProvider idp = StubIdentityProvider.shared();

    @Autowired
    MockMvcTester mvc;

    @Test
    void theSignInPageOffersTheProviderAndSendsThePersonToIt() {
        assertThat(mvc.get().uri("/login").exchange()).hasStatusOk().bodyText().contains("Sign in with Corp SSO");
        var redirect = mvc.get().uri("/oauth2/authorization/corp").exchange();
        assertThat(redirect).hasStatus3xxRedirection();
        assertThat(redirect.getResponse().getHeader("Location"))
                .startsWith(idp.issuer() + "/authorize?")
                .contains(
                        "client_id=airlock-test",
                        "scope=openid%20profile",
                        "nonce=",
                        "redirect_uri=http://localhost/login/oauth2/code/corp");
    }

    @Test
    void mapsTheRolesClaimToRolesInKnownTenantsOnly() {
        MockHttpSession session = signIn(
                Map.of(
                        "preferred_username",
                        "oscar",
                        "airlock_roles",
                        List.of("APPROVER:acme", "auditor:globex", "APPROVER:nowhere", "ROOT", "PLATFORM_ADMIN")),
                true);
        Authentication person = person(session);
        assertThat(person).as("signed in").isNotNull();
        assertThat(person.getName()).isEqualTo("oscar");
        // Besides the roles, Spring Security records how the person signed in (FACTOR_...).
        assertThat(person.getAuthorities())
                .extracting(GrantedAuthority::getAuthority)
                .filteredOn(authority -> !authority.startsWith("FACTOR_"))
                .containsExactlyInAnyOrder("APPROVER:acme", "AUDITOR:globex", "PLATFORM_ADMIN");

        // The mapped roles are the ones the gateway applies.
        assertThat(mvc.get().uri("/api/v1/approvals").session(session).exchange())
                .hasStatusOk();
        assertThat(mvc.get()
                        .uri("/api/v1/audit/runs?tenant=tiny")
                        .session(session)
                        .exchange())
                .as("a platform administrator audits every tenant")
                .hasStatusOk();
    }

    @Test
    void aPersonWithoutTheClaimSignsInWithNoRoles() {
        MockHttpSession session = signIn(Map.of("preferred_username", "nora"), true);
        Authentication person = person(session);
        assertThat(person.getName()).isEqualTo("nora");
        assertThat(person.getAuthorities())
                .extracting(GrantedAuthority::getAuthority)
                .filteredOn(authority -> !authority.startsWith("FACTOR_"))
                .isEmpty();
        assertThat(mvc.get()
                        .uri("/api/v1/audit/runs?tenant=acme")
                        .session(session)
                        .exchange())
                .hasStatus(403);
    }

    @Test
    void refusesAnIdTokenNotSignedByTheProvider() {
        MockHttpSession session = new MockHttpSession();
        MvcTestResult callback = callback(
                session, Map.of("preferred_username", "mallory", "airlock_roles", List.of("PLATFORM_ADMIN")), false);
        assertThat(callback).hasStatus3xxRedirection();
        assertThat(callback.getResponse().getRedirectedUrl()).endsWith("/login?error");
        assertThat(person(session)).isNull();
        assertThat(mvc.get().uri("/api/v1/approvals").session(session).exchange())
                .hasStatus(401);
    }

    /** Signs in at the provider with these claims and checks that the gateway lets the person into the console. */
    private MockHttpSession signIn(Map<String, Object> claims, boolean signedByTheProvider) {
        MockHttpSession session = new MockHttpSession();
        MvcTestResult callback = callback(session, claims, signedByTheProvider);
        assertThat(callback).hasStatus3xxRedirection();
        assertThat(callback.getResponse().getRedirectedUrl()).endsWith("/console");
        MockHttpSession signedIn = (MockHttpSession) callback.getRequest().getSession(false);
        assertThat(mvc.get().uri("/console").session(signedIn).exchange()).hasStatusOk();
        return signedIn;
    }

    /** The browser's round trip: to the provider, the person signs in there, and back to the gateway's callback. */
    private MvcTestResult callback(MockHttpSession session, Map<String, Object> claims, boolean signedByTheProvider) {
        MvcTestResult start =
                mvc.get().uri("/oauth2/authorization/corp").session(session).exchange();
        assertThat(start).hasStatus3xxRedirection();
        URI back = idp.authorize(URI.create(start.getResponse().getHeader("Location")), claims, signedByTheProvider);
        assertThat(back.getPath()).isEqualTo("/login/oauth2/code/corp");
        return mvc.get().uri(back).session(session).exchange();
    }

    private static Authentication person(MockHttpSession session) {
        SecurityContext context = (SecurityContext)
                session.getAttribute(HttpSessionSecurityContextRepository.SPRING_SECURITY_CONTEXT_KEY);
        return context == null ? null : context.getAuthentication();
    }
}
