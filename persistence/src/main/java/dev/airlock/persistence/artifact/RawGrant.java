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
 * @param requester      who asked, and the only person who may use it
 * @param reason         why they asked
 * @param status         PENDING, GRANTED or REFUSED as recorded
 * @param decidedBy      who decided, or null (pending, or granted by a single-person policy)
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
        String reason,
        GrantStatus status,
        @Nullable String decidedBy,
        @Nullable String decisionReason,
        Instant requestedAt,
        @Nullable Instant decidedAt,
        Instant expiresAt) {

    /** The status as of {@code now}: PENDING, GRANTED, REFUSED or EXPIRED. */
    public GrantStatus statusAt(Instant now) {
        return status != GrantStatus.REFUSED && !now.isBefore(expiresAt) ? GrantStatus.EXPIRED : status;
    }

    /** Whether {@code person} may read the bytes through this grant at {@code now}. */
    public boolean usableBy(String person, Instant now) {
        return requester.equals(person) && statusAt(now) == GrantStatus.GRANTED;
    }
}
