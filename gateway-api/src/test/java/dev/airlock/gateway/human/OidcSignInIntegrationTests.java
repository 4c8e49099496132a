package dev.airlock.gateway.human;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.core.oidc.OidcIdToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUserAuthority;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

/** Sign-in through an OpenID Connect provider, and the mapping of its role claim to Airlock's roles. */
@AirlockIntegrationTest
class OidcSignInIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @Test
    void theSignInPageOffersTheProviderAndSendsThePersonToIt() {
        assertThat(mvc.get().uri("/login").exchange()).hasStatusOk().bodyText().contains("Sign in with Corp SSO");
        var redirect = mvc.get().uri("/oauth2/authorization/corp").exchange();
        assertThat(redirect).hasStatus3xxRedirection();
        assertThat(redirect.getResponse().getHeader("Location")).startsWith("https://idp.example.test/authorize?")
                .contains("client_id=airlock-test", "scope=openid%20profile");
    }

    @Test
    void mapsTheRolesClaimToRolesInKnownTenantsOnly() {
        OidcIdToken token = new OidcIdToken("t", Instant.now(), Instant.now().plusSeconds(60), Map.of(
                "sub", "u-1", "preferred_username", "erin",
                "airlock_roles", List.of("APPROVER:acme", "auditor:globex", "APPROVER:nowhere", "ROOT", "PLATFORM_ADMIN")));
        var mapped = new OidcRoles("airlock_roles", Set.of("acme", "globex"))
                .mapAuthorities(List.of(new OidcUserAuthority(token)));
        assertThat(mapped.stream().map(GrantedAuthority::getAuthority).toList())
                .containsExactly("APPROVER:acme", "AUDITOR:globex", "PLATFORM_ADMIN");
    }
}
