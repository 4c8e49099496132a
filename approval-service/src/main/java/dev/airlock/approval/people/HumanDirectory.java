package dev.airlock.approval.people;

import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.TenantNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;

/**
 * The people declared under {@code airlock.users}, as Spring Security users. A role in a tenant
 * becomes the authority {@code <ROLE>:<tenant>}; a platform administrator also has
 * {@code PLATFORM_ADMIN}. Passwords are kept only as the configured hashes.
 */
public final class HumanDirectory implements UserDetailsService {

    /** The authority of platform administrators. */
    public static final String PLATFORM_ADMIN = "PLATFORM_ADMIN";

    private final Map<String, UserDetails> users;

    private HumanDirectory(Map<String, UserDetails> users) {
        this.users = Map.copyOf(users);
    }

    /**
     * The directory of every configured person.
     *
     * @throws InvalidConfigurationException for a password that is not a delegating hash, an
     *                                       unknown role or an unknown tenant
     */
    public static HumanDirectory from(PeopleSettings properties, TenantNames tenants) {
        Map<String, UserDetails> users = new HashMap<>();
        properties.users().forEach((name, user) -> {
            String key = "airlock.users." + name;
            checkPasswordHash(key + ".password", user.password());
            List<GrantedAuthority> authorities = new ArrayList<>();
            user.roles().forEach((tenant, roles) -> {
                if (!tenants.contains(tenant)) {
                    throw new InvalidConfigurationException(key + ".roles." + tenant, "no such tenant");
                }
                for (String role : roles) {
                    try {
                        authorities.add(
                                new SimpleGrantedAuthority(Role.valueOf(role.toUpperCase(Locale.ROOT)) + ":" + tenant));
                    } catch (IllegalArgumentException e) {
                        throw new InvalidConfigurationException(
                                key + ".roles." + tenant,
                                "unknown role '" + role + "'; roles are APPROVER, AUDITOR, TENANT_ADMIN");
                    }
                }
            });
            if (user.platformAdmin()) {
                authorities.add(new SimpleGrantedAuthority(PLATFORM_ADMIN));
            }
            users.put(
                    name,
                    User.withUsername(name)
                            .password(user.password())
                            .authorities(authorities)
                            .build());
        });
        return new HumanDirectory(users);
    }

    /** The password encoders accepted in configuration: hashing ones only, never plain text or fast digests. */
    static final Set<String> HASHING_ENCODERS = Set.of(
            "bcrypt",
            "argon2",
            "argon2@SpringSecurity_v5_8",
            "scrypt",
            "scrypt@SpringSecurity_v5_8",
            "pbkdf2",
            "pbkdf2@SpringSecurity_v5_8");

    private static void checkPasswordHash(String key, String password) {
        Matcher m = password == null ? null : DELEGATING.matcher(password);
        if (m == null || !m.matches()) {
            throw new InvalidConfigurationException(
                    key, "must be a hash in Spring Security's delegating format, such as {bcrypt}$2a$10$...");
        }
        if (!HASHING_ENCODERS.contains(m.group(1))) {
            throw new InvalidConfigurationException(
                    key,
                    "{" + m.group(1) + "} is not accepted: use a password hash "
                            + "made by bcrypt, argon2, scrypt or pbkdf2 (for example {bcrypt}$2a$10$...), never plain text or a fast digest");
        }
    }

    private static final Pattern DELEGATING = Pattern.compile("\\{([^{}]+)}(.+)", Pattern.DOTALL);

    /** Whether {@code username} is a configured person. */
    public boolean knows(String username) {
        return username != null && users.containsKey(username);
    }

    /**
     * The tenants a configured person has a role in, of {@code all}: every one for a platform
     * administrator, none for a name that is nobody's.
     */
    public Set<String> tenantsOf(String username, Set<String> all) {
        UserDetails user = username == null ? null : users.get(username);
        if (user == null) {
            return Set.of();
        }
        Human human =
                Human.of(org.springframework.security.authentication.UsernamePasswordAuthenticationToken.authenticated(
                        user, null, user.getAuthorities()));
        if (human.authorities().contains(PLATFORM_ADMIN)) {
            return Set.copyOf(all);
        }
        Set<String> tenants = new java.util.TreeSet<>(human.tenants());
        tenants.retainAll(all);
        return tenants;
    }

    @Override
    public UserDetails loadUserByUsername(String username) {
        UserDetails user = users.get(username);
        if (user == null) {
            throw new UsernameNotFoundException("unknown user");
        }
        return User.withUserDetails(user).build();
    }
}
