package dev.airlock.approval.people;

import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;

/**
 * The stable identity of a signed-in person, which user names are not: a configured person and
 * an OpenID Connect person may share a name, never an identity. {@code password:<user>} for
 * configured people, {@code oidc:<registration>:<subject>} for OpenID Connect sign-ins.
 */
public final class Identities {

    private Identities() {}

    /**
     * The identity behind {@code authentication}.
     *
     * @throws IllegalStateException for a kind of sign-in that has no stable identity
     */
    public static String of(Authentication authentication) {
        if (authentication instanceof OAuth2AuthenticationToken oauth
                && oauth.getPrincipal() instanceof OidcUser user) {
            return "oidc:" + oauth.getAuthorizedClientRegistrationId() + ":" + user.getSubject();
        }
        if (authentication.getPrincipal() instanceof TokenPrincipal token) {
            return token.identity();
        }
        if (authentication instanceof UsernamePasswordAuthenticationToken
                && authentication.getPrincipal() instanceof UserDetails user) {
            return "password:" + user.getUsername();
        }
        throw new IllegalStateException(
                "no stable identity for a " + authentication.getClass().getSimpleName());
    }

    /** Whether the identity is a configured person's, whose roles can be looked up at any time. */
    static boolean isConfigured(String identity) {
        return identity.startsWith("password:");
    }

    /** The user name of a configured person's identity. */
    static String configuredName(String identity) {
        return identity.substring("password:".length());
    }
}
