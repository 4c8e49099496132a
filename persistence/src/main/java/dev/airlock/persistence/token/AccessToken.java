package dev.airlock.persistence.token;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A person's token for a bot. The token itself is never stored, only its SHA-256. It belongs to
 * a stable identity ({@code password:<user>} or {@code oidc:<registration>:<subject>}), carries
 * scopes, and expires.
 */
@Entity
@Table(name = "access_tokens", schema = "airlock")
public class AccessToken {

    @Id
    private UUID id;

    /** The owner's display name, as shown in decisions. */
    @Column(nullable = false, updatable = false)
    private String owner;

    @Column(nullable = false, updatable = false)
    private String identity;

    @Column(nullable = false, updatable = false)
    private String name;

    @Column(name = "token_sha256", nullable = false, updatable = false)
    private String tokenSha256;

    /** Space-separated scope names. */
    @Column(nullable = false, updatable = false)
    private String scopes;

    /** Space-separated authorities fixed at creation, for owners whose roles cannot be looked up later; else null. */
    @Column(updatable = false)
    private @Nullable String authorities;

    /**
     * For a configured person's token, a digest of who that person was when creating it (their
     * identity and password setting); null for an OpenID Connect person's, whose identity is unique.
     */
    @Column(name = "person_sha256", updatable = false)
    private @Nullable String personSha256;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "expires_at", nullable = false, updatable = false)
    private Instant expiresAt;

    @Column(name = "last_used_at")
    private @Nullable Instant lastUsedAt;

    @Column(name = "revoked_at")
    private @Nullable Instant revokedAt;

    protected AccessToken() {}

    /**
     * A new token.
     *
     * @param authorities  the owner's authorities to keep with the token, or null to look them up at each use
     * @param personSha256 for a configured person, a digest of who they are now, which the token's uses must match; else null
     */
    public AccessToken(
            UUID id,
            String identity,
            String owner,
            String name,
            String tokenSha256,
            Set<String> scopes,
            @Nullable Set<String> authorities,
            @Nullable String personSha256,
            Instant createdAt,
            Instant expiresAt) {
        if (scopes.isEmpty()) {
            throw new IllegalArgumentException("a token needs at least one scope");
        }
        if (!expiresAt.isAfter(createdAt)) {
            throw new IllegalArgumentException("a token must expire after it is created");
        }
        this.id = id;
        this.identity = identity;
        this.owner = owner;
        this.name = name;
        this.tokenSha256 = tokenSha256;
        this.scopes = String.join(" ", new TreeSet<>(scopes));
        this.authorities = authorities == null ? null : String.join(" ", new TreeSet<>(authorities));
        this.personSha256 = personSha256;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
    }

    /** Records a use. */
    public void used(Instant now) {
        lastUsedAt = now;
    }

    /** Revokes the token; revoking twice keeps the first time. */
    public void revoke(Instant now) {
        if (revokedAt == null) {
            revokedAt = now;
        }
    }

    /** Whether the token is neither revoked nor expired at {@code now}. */
    public boolean usableAt(Instant now) {
        return revokedAt == null && now.isBefore(expiresAt);
    }

    /** Whether the token has not been revoked (it may still have expired). */
    public boolean active() {
        return revokedAt == null;
    }

    public UUID id() {
        return id;
    }

    public String owner() {
        return owner;
    }

    public String identity() {
        return identity;
    }

    public String name() {
        return name;
    }

    public Set<String> scopes() {
        return split(scopes);
    }

    /** The authorities kept with the token, or null when they are looked up at each use. */
    public @Nullable Set<String> authorities() {
        return authorities == null ? null : split(authorities);
    }

    /** The digest of the configured person the token was created by, or null (see the field). */
    public @Nullable String personSha256() {
        return personSha256;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant expiresAt() {
        return expiresAt;
    }

    public @Nullable Instant lastUsedAt() {
        return lastUsedAt;
    }

    public @Nullable Instant revokedAt() {
        return revokedAt;
    }

    /** The words of {@code text}, sorted, so that pages list them in a stable order. */
    private static Set<String> split(String text) {
        return text.isBlank()
                ? Set.of()
                : java.util.Collections.unmodifiableSortedSet(new TreeSet<>(Arrays.asList(text.split(" "))));
    }
}
