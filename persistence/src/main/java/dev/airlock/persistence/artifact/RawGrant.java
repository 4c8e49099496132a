package dev.airlock.persistence.artifact;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One person's time-limited access to one run's raw artifact.
 *
 * @param id             the grant
 * @param tenant         the run's tenant
 * @param runId          the run
 * @param requester      who asked (their user name)
 * @param requesterIdentity the stable identity of who asked, the only one who may use it; null for
 *                       a grant recorded before identities were (never usable)
 * @param reason         why they asked
 * @param status         PENDING, GRANTED or REFUSED as recorded
 * @param decidedBy      who decided, or null (pending, or granted by a single-person policy)
 * @param decidedByIdentity the stable identity of who decided, or null
 * @param decisionReason the decider's reason, or null
 * @param requestedAt    when it was asked for
 * @param decidedAt      when it was decided, or null
 * @param expiresAt      when a pending request lapses, or when a granted access ends
 */
public record RawGrant(
        UUID id,
        String tenant,
        UUID runId,
        String requester,
        @Nullable String requesterIdentity,
        String reason,
        GrantStatus status,
        @Nullable String decidedBy,
        @Nullable String decidedByIdentity,
        @Nullable String decisionReason,
        Instant requestedAt,
        @Nullable Instant decidedAt,
        Instant expiresAt) {

    /** The status as of {@code now}: PENDING, GRANTED, REFUSED or EXPIRED. */
    public GrantStatus statusAt(Instant now) {
        return status != GrantStatus.REFUSED && !now.isBefore(expiresAt) ? GrantStatus.EXPIRED : status;
    }

    /**
     * Whether the person with {@code identity} may read the bytes through this grant at {@code now}:
     * only its requester, by identity (a name may be shared or change), while it is granted.
     */
    public boolean usableBy(String identity, Instant now) {
        return requestedBy(identity) && statusAt(now) == GrantStatus.GRANTED;
    }

    /** Whether {@code identity} is the requester's. */
    public boolean requestedBy(String identity) {
        return requesterIdentity != null && requesterIdentity.equals(identity);
    }
}
