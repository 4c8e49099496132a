package dev.airlock.approval.people.web;

import dev.airlock.kernel.config.InvalidConfigurationException;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;

/**
 * The sign-in providers Airlock accepts: OpenID Connect only. A person signed in through plain
 * OAuth2 has no subject to be told apart by ({@code Identities}) and no ID token to carry their
 * roles, so a registration without the {@code openid} scope stops the start instead of letting
 * people in whom every page would then refuse.
 */
final class OidcRegistrations {

    private OidcRegistrations() {}

    /**
     * Checks every registration the repository lists.
     *
     * @throws InvalidConfigurationException naming the registration's {@code scope} key
     */
    static void requireOpenId(ClientRegistrationRepository registrations) {
        if (!(registrations instanceof Iterable<?> all)) {
            return; // a repository that cannot list its registrations is the application's own
        }
        for (Object each : all) {
            if (each instanceof ClientRegistration registration
                    && !registration.getScopes().contains("openid")) {
                throw new InvalidConfigurationException(
                        "spring.security.oauth2.client.registration." + registration.getRegistrationId() + ".scope",
                        "must include openid: people sign in through OpenID Connect only (a stable subject"
                                + " tells them apart, the ID token carries their roles)");
            }
        }
    }
}
