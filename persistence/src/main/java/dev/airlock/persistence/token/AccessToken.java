package dev.airlock.persistence.token;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** A person's token for a bot. The token itself is never stored, only its SHA-256. */
@Entity
@Table(name = "access_tokens", schema = "airlock")
public class AccessToken {

    @Id
    private UUID id;

    @Column(nullable = false, updatable = false)
    private String owner;

    @Column(nullable = false, updatable = false)
    private String name;

    @Column(name = "token_sha256", nullable = false, updatable = false)
    private String tokenSha256;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "last_used_at")
    private Instant lastUsedAt;

    @Column(name = "revoked_at")
    private Instant revokedAt;

    protected AccessToken() {
    }

    public AccessToken(UUID id, String owner, String name, String tokenSha256, Instant createdAt) {
        this.id = id;
        this.owner = owner;
        this.name = name;
        this.tokenSha256 = tokenSha256;
        this.createdAt = createdAt;
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

    public boolean active() {
        return revokedAt == null;
    }

    public UUID id() {
        return id;
    }

    public String owner() {
        return owner;
    }

    public String name() {
        return name;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant lastUsedAt() {
        return lastUsedAt;
    }

    public Instant revokedAt() {
        return revokedAt;
    }
}
