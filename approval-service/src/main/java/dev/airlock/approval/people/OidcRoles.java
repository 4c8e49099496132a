package dev.airlock.approval.people;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.authority.mapping.GrantedAuthoritiesMapper;
import org.springframework.security.oauth2.core.oidc.user.OidcUserAuthority;

/**
 * Maps an OIDC sign-in to Airlock's roles: the identity provider puts the person's roles in one
 * claim (default {@code airlock_roles}) as strings {@code APPROVER:acme}, {@code AUDITOR:globex},
 * {@code TENANT_ADMIN:acme} or {@code PLATFORM_ADMIN}. Roles for unknown tenants and unknown
 * role names are dropped and logged; nothing else from the token becomes an authority.
 */
public final class OidcRoles implements GrantedAuthoritiesMapper {

    private static final Logger log = LoggerFactory.getLogger(OidcRoles.class);

    private final String claim;
    private final Set<String> tenants;

    public OidcRoles(String claim, Set<String> tenants) {
        this.claim = claim;
        this.tenants = Set.copyOf(tenants);
    }

    @Override
    public Collection<? extends GrantedAuthority> mapAuthorities(Collection<? extends GrantedAuthority> authorities) {
        List<GrantedAuthority> mapped = new ArrayList<>();
        for (GrantedAuthority authority : authorities) {
            if (!(authority instanceof OidcUserAuthority oidc)) {
                continue;
            }
            Object value = oidc.getAttributes().get(claim);
            if (!(value instanceof Collection<?> roles)) {
                continue;
            }
            for (Object role : roles) {
                String text = String.valueOf(role).strip();
                if (text.equals(HumanDirectory.PLATFORM_ADMIN)) {
                    mapped.add(new SimpleGrantedAuthority(HumanDirectory.PLATFORM_ADMIN));
                    continue;
                }
                int colon = text.indexOf(':');
                try {
                    Role parsed = Role.valueOf(
                            colon < 0 ? "?" : text.substring(0, colon).toUpperCase(Locale.ROOT));
                    String tenant = text.substring(colon + 1);
                    if (tenants.contains(tenant)) {
                        mapped.add(new SimpleGrantedAuthority(parsed + ":" + tenant));
                    } else {
                        log.warn("Ignoring OIDC role '{}' for an unknown tenant", text);
                    }
                } catch (IllegalArgumentException e) {
                    log.warn("Ignoring OIDC role '{}': not ROLE:tenant", text);
                }
            }
        }
        return mapped;
    }
}
