package dev.airlock.approval.people;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;

/**
 * The signed-in person as the gateway needs them: a name, a stable identity and the tenants in
 * which they hold each role. The name is what people read; the identity is what tells two people
 * apart ({@link Identities}): a configured person and an OpenID Connect person may share a name,
 * and an OpenID Connect person's name may change at the provider.
 *
 * @param name        the user name
 * @param identity    the stable identity ({@link Identities#of})
 * @param authorities {@code <ROLE>:<tenant>} and {@code PLATFORM_ADMIN}
 */
public record Human(String name, String identity, Set<String> authorities) {

    /** The person behind a console session or an access token. */
    public static Human of(Authentication authentication) {
        return new Human(
                authentication.getName(),
                Identities.of(authentication),
                authentication.getAuthorities().stream()
                        .map(GrantedAuthority::getAuthority)
                        .collect(Collectors.toUnmodifiableSet()));
    }

    /** The tenants where the person holds {@code role}. */
    public Set<String> tenants(Role role) {
        String prefix = role.name() + ":";
        return authorities.stream()
                .filter(a -> a.startsWith(prefix))
                .map(a -> a.substring(prefix.length()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The tenants where the person holds any role. */
    public Set<String> tenants() {
        Set<String> all = new TreeSet<>();
        for (Role role : Role.values()) {
            all.addAll(tenants(role));
        }
        return all;
    }
}
