package dev.airlock.approval.grant;

import dev.airlock.approval.input.HumanText;
import dev.airlock.approval.request.FourEyes;
import dev.airlock.persistence.artifact.GrantStatus;
import dev.airlock.persistence.artifact.RawArtifactStore;
import dev.airlock.persistence.artifact.RawGrant;
import dev.airlock.persistence.artifact.RawGrantRecords;
import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.run.StreamName;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The one way to the bytes of a raw artifact: a person asks for a grant with a reason, a second
 * person decides when the tenant's policy says so, and the requester alone reads the bytes until
 * the grant expires. Every request, decision and use is written to the audit log in the same
 * transaction; every read checks the stored artifact against its recorded digest.
 */
@Service
public class RawAccessGrants {

    /** How long a request waits for its decision. */
    public static final Duration DECISION_WINDOW = Duration.ofHours(24);

    private static final Logger log = LoggerFactory.getLogger(RawAccessGrants.class);

    private final RawGrantRecords records;
    private final RawArtifactStore artifacts;
    private final AuditLog audit;
    private final HumanText text;

    RawAccessGrants(RawGrantRecords records, RawArtifactStore artifacts, AuditLog audit, HumanText text) {
        this.records = records;
        this.artifacts = artifacts;
        this.audit = audit;
        this.text = text;
    }

    /**
     * Asks for access to one run's raw artifact.
     *
     * @param requester         who asks (their user name)
     * @param requesterIdentity their stable identity: the grant is usable under this identity only
     * @param secondPerson whether another person must grant it; otherwise it is granted at once
     * @param ttl          how long a granted access lasts
     */
    @Transactional
    public RawGrant request(
            String tenant,
            UUID runId,
            String requester,
            String requesterIdentity,
            @Nullable String reason,
            boolean secondPerson,
            Duration ttl,
            Instant at) {
        Instant now = at.truncatedTo(ChronoUnit.MICROS);
        text.check("reason", reason);
        if (reason == null || dev.airlock.approval.request.Reasons.isEmpty(reason)) {
            throw new GrantRefused(GrantRefused.Reason.REASON_REQUIRED, "Say why you need the raw bytes.");
        }
        RawArtifactStore.RawArtifactFacts facts = artifacts
                .describe(tenant, runId)
                .orElseThrow(() ->
                        new GrantRefused(GrantRefused.Reason.NOT_FOUND, "Run " + runId + " has no raw artifact."));
        if (!facts.present()) {
            throw new GrantRefused(
                    GrantRefused.Reason.PURGED,
                    "The raw bytes of run " + runId + " were purged at " + facts.purgedAt()
                            + "; only their digest and sizes remain.");
        }
        RawGrant grant = new RawGrant(
                UUID.randomUUID(),
                tenant,
                runId,
                requester,
                requesterIdentity,
                reason.strip(),
                secondPerson ? GrantStatus.PENDING : GrantStatus.GRANTED,
                null,
                null,
                null,
                now,
                secondPerson ? null : now,
                now.plus(secondPerson ? DECISION_WINDOW : ttl));
        records.insert(grant);
        audit.append(
                tenant,
                AuditEventType.RAW_GRANT_REQUESTED,
                runId,
                "human:" + requester,
                Map.of(
                        "grant",
                        grant.id().toString(),
                        "identity",
                        requesterIdentity,
                        "reason",
                        grant.reason(),
                        "secondPerson",
                        Boolean.toString(secondPerson)),
                now);
        if (!secondPerson) {
            audit.append(
                    tenant,
                    AuditEventType.RAW_GRANT_DECIDED,
                    runId,
                    "airlock",
                    Map.of(
                            "grant",
                            grant.id().toString(),
                            "decision",
                            "GRANTED",
                            "policy",
                            "single-person",
                            "expiresAt",
                            grant.expiresAt().toString()),
                    now);
        }
        return grant;
    }

    /**
     * Decides on a pending request. The decider must be someone other than the requester, by name
     * and by identity; the caller has checked they hold a deciding role in the grant's tenant.
     *
     * @param tenants the tenants where the decider may decide
     * @param deciderIdentity the decider's stable identity
     * @param granted whether access is granted
     * @param ttl     how long a granted access lasts from now
     */
    @Transactional
    public RawGrant decide(
            UUID grantId,
            Collection<String> tenants,
            String decider,
            String deciderIdentity,
            boolean granted,
            @Nullable String reason,
            Duration ttl,
            Instant at) {
        Instant now = at.truncatedTo(ChronoUnit.MICROS);
        text.check("reason", reason);
        RawGrant grant = records.lock(grantId, tenants).orElseThrow(() -> notFound(grantId));
        if (!FourEyes.isSecondPerson(decider, deciderIdentity, grant.requester(), grant.requesterIdentity())) {
            throw new GrantRefused(
                    GrantRefused.Reason.SELF_APPROVAL, "You asked for this grant; someone else must decide on it.");
        }
        if (grant.requesterIdentity() == null) {
            // Recorded before identities: it could never be used, so granting it would mean nothing.
            throw new GrantRefused(
                    GrantRefused.Reason.NOT_USABLE,
                    "This request was recorded without its requester's identity and can never be used;"
                            + " the requester must ask again.");
        }
        if (grant.status() != GrantStatus.PENDING) {
            throw new GrantRefused(
                    GrantRefused.Reason.ALREADY_DECIDED,
                    "This request was " + grant.status().name().toLowerCase() + " by " + grant.decidedBy() + ".");
        }
        if (!now.isBefore(grant.expiresAt())) {
            throw new GrantRefused(GrantRefused.Reason.EXPIRED, "This request lapsed at " + grant.expiresAt() + ".");
        }
        GrantStatus status = granted ? GrantStatus.GRANTED : GrantStatus.REFUSED;
        Instant expiresAt = granted ? now.plus(ttl) : grant.expiresAt();
        String why = reason == null || reason.isBlank() ? null : reason.strip();
        records.decide(grantId, status, decider, deciderIdentity, why, now, expiresAt);
        Map<String, String> details = new TreeMap<>(
                Map.of("grant", grantId.toString(), "decision", status.name(), "identity", deciderIdentity));
        if (why != null) {
            details.put("reason", why);
        }
        if (granted) {
            details.put("expiresAt", expiresAt.toString());
        }
        audit.append(grant.tenant(), AuditEventType.RAW_GRANT_DECIDED, grant.runId(), "human:" + decider, details, now);
        return new RawGrant(
                grant.id(),
                grant.tenant(),
                grant.runId(),
                grant.requester(),
                grant.requesterIdentity(),
                grant.reason(),
                status,
                decider,
                deciderIdentity,
                why,
                grant.requestedAt(),
                now,
                expiresAt);
    }

    /** A grant in one of the given tenants. */
    public Optional<RawGrant> find(UUID grantId, Collection<String> tenants) {
        return records.find(grantId, tenants);
    }

    /** The newest grants of the given tenants, newest first. */
    public List<RawGrant> recent(Collection<String> tenants, int limit) {
        return records.recent(tenants, limit);
    }

    /** The grants asked for on one run, oldest first. */
    public List<RawGrant> forRun(String tenant, UUID runId) {
        return records.forRun(tenant, runId);
    }

    /**
     * Reads bytes of one stream through a grant and records the use.
     *
     * @param holder         the reader's name, recorded with the read
     * @param holderIdentity the reader's stable identity, which must be the grant's requester's
     * @param use    what the bytes are for, recorded in the audit event: {@code hexdump}, {@code audit-view}, {@code download} or {@code evidence}
     * @param offset the first byte
     * @param length how many bytes at most; {@code Integer.MAX_VALUE} for the rest of the stream
     */
    @Transactional
    public RawSlice open(
            UUID grantId,
            Collection<String> tenants,
            String holder,
            String holderIdentity,
            String use,
            StreamName stream,
            long offset,
            int length,
            Instant now) {
        RawGrant grant = records.find(grantId, tenants).orElseThrow(() -> notFound(grantId));
        if (!grant.usableBy(holderIdentity, now)) {
            GrantStatus status = grant.statusAt(now);
            throw status == GrantStatus.EXPIRED
                    ? new GrantRefused(
                            GrantRefused.Reason.EXPIRED, "This grant expired at " + grant.expiresAt() + "; ask again.")
                    : new GrantRefused(
                            GrantRefused.Reason.NOT_USABLE,
                            grant.requestedBy(holderIdentity)
                                    ? "This grant is " + status.name().toLowerCase() + "."
                                    : grant.requesterIdentity() == null
                                            ? "This grant was recorded without its requester's identity and"
                                                    + " cannot be used; ask again."
                                            : "This grant belongs to " + grant.requester() + " ("
                                                    + grant.requesterIdentity() + ").");
        }
        int from = (int) Math.clamp(offset, 0, Integer.MAX_VALUE - 1);
        RawArtifactStore.StoredBytes read = artifacts
                .read(grantId, holder, holderIdentity, stream, from, length)
                .orElseThrow(() -> notFound(grantId));
        if (read.purgedAt() != null) {
            throw new GrantRefused(
                    GrantRefused.Reason.PURGED,
                    "The raw bytes of run " + grant.runId() + " were purged at " + read.purgedAt() + ".");
        }
        byte[] bytes = Objects.requireNonNull(read.bytes(), "bytes that are not purged are read");
        String actualSha256 = Objects.requireNonNull(read.actualSha256(), "bytes that are not purged have a digest");
        audit.append(
                grant.tenant(),
                AuditEventType.RAW_GRANT_USED,
                grant.runId(),
                "human:" + holder,
                Map.of(
                        "grant",
                        grantId.toString(),
                        "identity",
                        holderIdentity,
                        "use",
                        use,
                        "stream",
                        stream.key(),
                        "offset",
                        Integer.toString(from),
                        "bytes",
                        Integer.toString(bytes.length)),
                now);
        RawSlice slice = new RawSlice(
                grant.runId(), stream, from, bytes, read.streamBytes(), read.recordedSha256(), actualSha256);
        if (!slice.digestMatches()) {
            log.error(
                    "Raw artifact of run {} (tenant {}) does not match its recorded digest: recorded {}, stored bytes hash to {}",
                    grant.runId(),
                    grant.tenant(),
                    read.recordedSha256(),
                    actualSha256);
            audit.append(
                    grant.tenant(),
                    AuditEventType.RAW_DIGEST_MISMATCH,
                    grant.runId(),
                    "airlock",
                    Map.of("recorded", read.recordedSha256(), "actual", actualSha256),
                    now);
        }
        return slice;
    }

    private static GrantRefused notFound(UUID grantId) {
        return new GrantRefused(GrantRefused.Reason.NOT_FOUND, "No grant " + grantId + " in your tenants.");
    }
}
