package dev.airlock.approval.people.web;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.kernel.config.InvalidConfigurationException;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;

/** Only OpenID Connect providers sign people in; a plain OAuth2 registration stops the start. */
class OidcRegistrationsTests {

    private static ClientRegistration registration(String id, String... scopes) {
        return ClientRegistration.withRegistrationId(id)
                .clientId("airlock")
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .redirectUri("{baseUrl}/login/oauth2/code/{registrationId}")
                .authorizationUri("https://login.example.test/authorize")
                .tokenUri("https://login.example.test/token")
                .userInfoUri("https://login.example.test/userinfo")
                .userNameAttributeName("login")
                .scope(scopes)
                .build();
    }

    @Test
    void aRegistrationWithoutOpenIdStopsTheStartNamingItsScope() {
        var repository = new InMemoryClientRegistrationRepository(
                registration("corp", "openid", "profile"), registration("forge", "read:user"));
        assertThatThrownBy(() -> OidcRegistrations.requireOpenId(repository))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith("spring.security.oauth2.client.registration.forge.scope: must include openid");
    }

    @Test
    void openIdConnectRegistrationsPass() {
        var repository = new InMemoryClientRegistrationRepository(
                registration("corp", "openid", "profile"), registration("other", "openid"));
        assertThatCode(() -> OidcRegistrations.requireOpenId(repository)).doesNotThrowAnyException();
    }
}
