package dev.airlock.gateway.human;

import dev.airlock.gateway.support.RunIds;
import dev.airlock.gateway.support.Sha256;
import dev.airlock.persistence.token.AccessToken;
import dev.airlock.persistence.token.AccessTokenRepository;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Personal access tokens: a person creates one for a bot, which then acts on the approver API
 * with that person's current roles. Tokens start with {@code alp_}, are shown once, and are
 * stored only as SHA-256 digests.
 */
@Service
public class AccessTokens {

    /** Every token starts with this, so that it cannot be mistaken for an agent key. */
    public static final String PREFIX = "alp_";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final AccessTokenRepository tokens;
    private final HumanDirectory people;
    private final Clock clock;

    AccessTokens(AccessTokenRepository tokens, HumanDirectory people, Clock clock) {
        this.tokens = tokens;
        this.people = people;
        this.clock = clock;
    }

    /**
     * A token just created.
     *
     * @param token the token itself, shown to its owner once and never again
     * @param name  what it is for
     */
    public record Created(String token, String name) {
    }

    @Transactional
    public Created create(String owner, String name) {
        String label = name == null || name.isBlank() ? "unnamed" : name.strip();
        if (label.length() > 100) {
            label = label.substring(0, 100);
        }
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String token = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        tokens.save(new AccessToken(RunIds.next(clock), owner, label, Sha256.hex(token), clock.instant()));
        return new Created(token, label);
    }

    @Transactional(readOnly = true)
    public List<AccessToken> list(String owner) {
        return tokens.findByOwnerOrderByCreatedAtDesc(owner);
    }

    @Transactional
    public boolean revoke(String owner, UUID id) {
        return tokens.findByIdAndOwner(id, owner).map(t -> {
            t.revoke(clock.instant());
            return true;
        }).orElse(false);
    }

    /** The person a presented token acts for, with their current roles; records the use. */
    @Transactional
    public Optional<UserDetails> authenticate(String presented) {
        if (presented == null || !presented.startsWith(PREFIX)) {
            return Optional.empty();
        }
        return tokens.findByTokenSha256AndRevokedAtIsNull(Sha256.hex(presented)).flatMap(token -> {
            try {
                UserDetails person = people.loadUserByUsername(token.owner());
                token.used(clock.instant());
                return Optional.of(person);
            } catch (UsernameNotFoundException e) {
                return Optional.empty();
            }
        });
    }
}
