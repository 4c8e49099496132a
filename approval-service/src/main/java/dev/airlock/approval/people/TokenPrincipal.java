package dev.airlock.approval.people;

import java.security.Principal;
import java.util.Set;

/**
 * The person a personal access token acts for, as the security context holds it.
 *
 * @param identity    the owner's stable identity
 * @param name        the owner's display name
 * @param scopes      what the token may do
 * @param authorities the roles it acts with
 */
public record TokenPrincipal(String identity, String name, Set<TokenScope> scopes, Set<String> authorities)
        implements Principal {

    public TokenPrincipal {
        scopes = Set.copyOf(scopes);
        authorities = Set.copyOf(authorities);
    }

    @Override
    public String getName() {
        return name;
    }
}
