package dev.airlock.approval.people;

import dev.airlock.approval.input.HumanText;
import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.kernel.digest.Sha256;
import dev.airlock.persistence.run.RunIds;
import dev.airlock.persistence.token.AccessToken;
import dev.airlock.persistence.token.AccessTokenRepository;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Personal access tokens: a person creates one for a bot, with scopes and an expiry; the bot
 * then acts on the approver and auditor APIs with those scopes and the person's roles. Tokens
 * start with {@code alp_}, are shown once, and are stored only as SHA-256 digests. A token
 * belongs to its creator's stable identity ({@link Identities}); a configured person's token acts
 * with their current roles, as long as the person configured under that name has the password
 * setting they had when creating it (a name given to someone else later, or a changed password
 * setting, ends it), an OpenID Connect person's with the roles they had when creating it
 * (bounded by the token's expiry).
 */
@Service
public class AccessTokens {

    /** Every token starts with this, so that it cannot be mistaken for an agent key. */
    public static final String PREFIX = "alp_";

    /** The longest token name, in characters. */
    static final int MAX_NAME_LENGTH = 100;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HumanText NAMES = new HumanText(MAX_NAME_LENGTH);

    private final AccessTokenRepository tokens;
    private final HumanDirectory people;
    private final PeopleSettings.Tokens settings;
    private final Clock clock;

    AccessTokens(AccessTokenRepository tokens, HumanDirectory people, PeopleSettings properties, Clock clock) {
        this.tokens = tokens;
        this.people = people;
        this.settings = properties.tokens();
        this.clock = clock;
    }

    /**
     * A token just created.
     *
     * @param token     the token itself, shown to its owner once and never again
     * @param name      what it is for
     * @param scopes    what it may do
     * @param expiresAt when it stops working
     */
    public record Created(String token, String name, Set<String> scopes, Instant expiresAt) {}

    /**
     * Creates a token for the signed-in person.
     *
     * @param ttl how long it lasts; null for the configured default
     * @throws IllegalArgumentException without scopes, with a lifetime over the maximum, or a name over 100 characters
     */
    @Transactional
    public Created create(Authentication owner, @Nullable String name, Set<TokenScope> scopes, @Nullable Duration ttl) {
        NAMES.check("name", name);
        String label = name == null || name.isBlank() ? "unnamed" : name.strip();
        if (scopes == null || scopes.isEmpty()) {
            throw new IllegalArgumentException("Choose at least one scope for the token.");
        }
        Duration lifetime = ttl == null ? settings.defaultTtl() : ttl;
        if (lifetime.isNegative() || lifetime.isZero() || lifetime.compareTo(settings.maxTtl()) > 0) {
            throw new IllegalArgumentException(
                    "A token may last at most " + settings.maxTtl().toDays() + " days.");
        }
        String identity = Identities.of(owner);
        Set<String> kept = Identities.isConfigured(identity)
                ? null
                : owner.getAuthorities().stream()
                        .map(GrantedAuthority::getAuthority)
                        .filter(a -> a.contains(":") || a.equals(HumanDirectory.PLATFORM_ADMIN))
                        .collect(Collectors.toSet());
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String token = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        Set<String> scopeNames = scopes.stream().map(TokenScope::text).collect(Collectors.toSet());
        AccessToken saved = tokens.save(new AccessToken(
                RunIds.next(clock),
                identity,
                owner.getName(),
                label,
                Sha256.hex(token),
                scopeNames,
                kept,
                Identities.isConfigured(identity)
                        ? personSha256(identity, people.loadUserByUsername(Identities.configuredName(identity)))
                        : null,
                now,
                now.plus(lifetime)));
        return new Created(token, label, scopeNames, saved.expiresAt());
    }

    /** The signed-in person's tokens, newest first. */
    @Transactional(readOnly = true)
    public List<AccessToken> list(Authentication owner) {
        return tokens.findByIdentityOrderByCreatedAtDesc(Identities.of(owner));
    }

    /** Revokes one of the signed-in person's tokens; it stops working at once. */
    @Transactional
    public boolean revoke(Authentication owner, UUID id) {
        return tokens.findByIdAndIdentity(id, Identities.of(owner))
                .map(t -> {
                    t.revoke(clock.instant());
                    return true;
                })
                .orElse(false);
    }

    /** The person a presented token acts for, if it is valid, unrevoked and unexpired; records the use. */
    @Transactional
    public Optional<TokenPrincipal> authenticate(String presented) {
        if (presented == null || !presented.startsWith(PREFIX)) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        return tokens.findByTokenSha256AndRevokedAtIsNull(Sha256.hex(presented))
                .filter(token -> token.usableAt(now))
                .flatMap(token -> authorities(token).map(authorities -> {
                    token.used(now);
                    Set<TokenScope> scopes = token.scopes().stream()
                            .map(TokenScope::parse)
                            .flatMap(Optional::stream)
                            .collect(Collectors.toSet());
                    return new TokenPrincipal(token.identity(), token.owner(), scopes, authorities);
                }));
    }

    private Optional<Set<String>> authorities(AccessToken token) {
        if (!Identities.isConfigured(token.identity())) {
            return Optional.ofNullable(token.authorities());
        }
        // The person configured under that name now must be the one who created the token: a name
        // given to someone else later (or a password setting changed) does not inherit it.
        UserDetails person;
        try {
            person = people.loadUserByUsername(Identities.configuredName(token.identity()));
        } catch (UsernameNotFoundException e) {
            return Optional.empty();
        }
        String stored = token.personSha256();
        if (stored == null
                || !java.security.MessageDigest.isEqual(
                        personSha256(token.identity(), person).getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                        stored.getBytes(java.nio.charset.StandardCharsets.US_ASCII))) {
            return Optional.empty();
        }
        return Optional.of(person.getAuthorities().stream()
                .map(GrantedAuthority::getAuthority)
                .collect(Collectors.toSet()));
    }

    /**
     * Who the configured person {@code person} of {@code identity} is: a digest of the identity and their
     * password setting (a hash, salted anew whenever it is set).
     */
    private static String personSha256(String identity, UserDetails person) {
        return Sha256.hex("airlock.token-owner\n" + identity + "\n" + person.getPassword());
    }
}
