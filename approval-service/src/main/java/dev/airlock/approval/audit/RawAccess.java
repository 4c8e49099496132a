package dev.airlock.approval.audit;

import dev.airlock.approval.grant.GrantRefused;
import dev.airlock.approval.grant.RawAccessGrants;
import dev.airlock.approval.grant.RawSlice;
import dev.airlock.approval.people.Human;
import dev.airlock.approval.request.FourEyes;
import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.persistence.artifact.GrantStatus;
import dev.airlock.persistence.artifact.RawGrant;
import dev.airlock.persistence.run.StreamName;
import dev.airlock.sanitizer.AuditView;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Raw artifacts for people, through grants under each tenant's {@code raw-access} policy. The
 * bytes leave this class only as a hex dump, as the strict audit view (both plain ASCII text) or
 * as a download the caller must serve as an attachment.
 */
@Component
public class RawAccess {

    /** Bytes per page of the hex dump and of the audit view. */
    public static final int PAGE = 4096;

    private final RawAccessGrants grants;
    private final PeopleSettings people;
    private final AuditAccess access;
    private final Clock clock;

    RawAccess(RawAccessGrants grants, PeopleSettings people, AuditAccess access, Clock clock) {
        this.grants = grants;
        this.people = people;
        this.access = access;
        this.clock = clock;
    }

    /** An auditor asks for access to one run's raw artifact. */
    public GrantView request(Human human, String tenant, UUID runId, @Nullable String reason) {
        access.requireAuditor(human, tenant);
        PeopleSettings.RawAccess policy = people.tenant(tenant).rawAccess();
        return view(grants.request(
                tenant,
                runId,
                human.name(),
                human.identity(),
                reason,
                policy.secondPerson(),
                policy.grantTtl(),
                clock.instant()));
    }

    /** A second person grants or refuses a pending request. */
    public GrantView decide(Human human, UUID grantId, boolean grant, @Nullable String reason) {
        var tenants = access.grantDeciderTenants(human);
        RawGrant pending = grants.find(grantId, tenants).orElseThrow(() -> notFound(grantId));
        return view(grants.decide(
                grantId,
                tenants,
                human.name(),
                human.identity(),
                grant,
                reason,
                people.tenant(pending.tenant()).rawAccess().grantTtl(),
                clock.instant()));
    }

    /** A grant the person may see: as an auditor or a tenant administrator of its tenant (the deciding roles). */
    public Optional<GrantView> find(Human human, UUID grantId) {
        return grants.find(grantId, access.grantDeciderTenants(human)).map(this::view);
    }

    /** A grant the person may see; 404 when there is none. */
    public GrantView get(Human human, UUID grantId) {
        return find(human, grantId).orElseThrow(() -> notFound(grantId));
    }

    /**
     * Whether the person may decide on the grant: a decider of its tenant and not its requester (by
     * name or identity), on a request recorded with its requester's identity (any other is never usable).
     */
    public boolean mayDecide(Human human, GrantView grant) {
        return grant.status() == GrantStatus.PENDING
                && grant.requesterIdentity() != null
                && FourEyes.isSecondPerson(human.name(), human.identity(), grant.requester(), grant.requesterIdentity())
                && access.grantDeciderTenants(human).contains(grant.tenant());
    }

    /** The newest grants of the person's tenants. */
    public List<GrantView> recent(Human human, int limit) {
        return grants.recent(access.grantDeciderTenants(human), limit).stream()
                .map(this::view)
                .toList();
    }

    /** The grants asked for on one run of a tenant the caller has checked. */
    public List<GrantView> forRun(String tenant, UUID runId) {
        return grants.forRun(tenant, runId).stream().map(this::view).toList();
    }

    /** One page of a stream as a hex dump, starting at {@code offset} (rounded down to a line). */
    public HexPage hexdump(Human human, UUID grantId, String stream, long offset) {
        long start = notNegative(offset) / HexDump.WIDTH * HexDump.WIDTH;
        RawSlice slice = open(human, grantId, "hexdump", stream, start, PAGE);
        return new HexPage(
                grantId.toString(),
                slice.runId().toString(),
                slice.stream().key(),
                start,
                slice.bytes().length,
                slice.streamBytes(),
                next(slice),
                previous(start),
                HexDump.lines(slice.bytes(), start),
                Digest.of(slice));
    }

    /** One page of a stream in the strict audit view, starting at {@code offset}. */
    public TextPage auditView(Human human, UUID grantId, String stream, long offset) {
        RawSlice slice = open(human, grantId, "audit-view", stream, notNegative(offset), PAGE);
        return new TextPage(
                grantId.toString(),
                slice.runId().toString(),
                slice.stream().key(),
                slice.offset(),
                slice.bytes().length,
                slice.streamBytes(),
                next(slice),
                previous(slice.offset()),
                AuditView.encode(slice.bytes()).replace("\\x0a", "\\x0a\n"),
                Digest.of(slice));
    }

    /** A whole stream, for a download served as an attachment. */
    public Download download(Human human, UUID grantId, String stream) {
        RawSlice slice = open(human, grantId, "download", stream, 0, Integer.MAX_VALUE);
        return new Download(
                "run-" + slice.runId() + "-" + slice.stream().key() + ".bin", slice.bytes(), Digest.of(slice));
    }

    /**
     * Both streams of a run's raw artifact for an evidence bundle, read through a grant the person
     * holds now (each read an audit event); empty when they hold none.
     *
     * @throws GrantRefused when the bytes were purged
     */
    public Optional<RawPair> forEvidence(Human human, String tenant, UUID runId) {
        Instant now = clock.instant();
        Optional<UUID> grant = grants.forRun(tenant, runId).stream()
                .filter(g -> g.usableBy(human.identity(), now))
                .map(dev.airlock.persistence.artifact.RawGrant::id)
                .findFirst();
        return grant.map(id -> {
            RawSlice stdout = open(human, id, "evidence", "stdout", 0, Integer.MAX_VALUE);
            RawSlice stderr = open(human, id, "evidence", "stderr", 0, Integer.MAX_VALUE);
            return new RawPair(stdout.bytes(), stderr.bytes(), stdout.digestMatches() && stderr.digestMatches());
        });
    }

    /**
     * A run's raw bytes, both streams.
     *
     * @param stdout  the retained stdout bytes
     * @param stderr  the retained stderr bytes
     * @param matches whether the stored bytes still hash to the digest recorded when they were stored
     */
    public record RawPair(byte[] stdout, byte[] stderr, boolean matches) {}

    private RawSlice open(Human human, UUID grantId, String use, String stream, long offset, int length) {
        StreamName name = StreamName.fromKey(stream)
                .orElseThrow(
                        () -> InvalidRequest.field("stream", "stream must be stdout or stderr, not '" + stream + "'"));
        return grants.open(
                grantId,
                access.auditorTenants(human),
                human.name(),
                human.identity(),
                use,
                name,
                offset,
                length,
                clock.instant());
    }

    private GrantView view(RawGrant grant) {
        Instant now = clock.instant();
        return new GrantView(
                grant.id().toString(),
                grant.tenant(),
                grant.runId().toString(),
                grant.requester(),
                grant.requesterIdentity(),
                grant.reason(),
                grant.statusAt(now),
                grant.decidedBy(),
                grant.decidedByIdentity(),
                grant.decisionReason(),
                grant.requestedAt(),
                grant.decidedAt(),
                grant.expiresAt());
    }

    private static @Nullable Long next(RawSlice slice) {
        long end = slice.offset() + slice.bytes().length;
        return end < slice.streamBytes() ? end : null;
    }

    /** A byte offset a request gave: a negative one is a 400 naming it, not read as 0. */
    private static long notNegative(long offset) {
        if (offset < 0) {
            throw InvalidRequest.field("offset", "offset must be 0 or more");
        }
        return offset;
    }

    private static @Nullable Long previous(long offset) {
        return offset == 0 ? null : Math.max(0, offset - PAGE);
    }

    private static GrantRefused notFound(UUID grantId) {
        return new GrantRefused(GrantRefused.Reason.NOT_FOUND, "No grant " + grantId + " in your tenants.");
    }

    /**
     * A grant as people see it.
     *
     * @param id             the grant
     * @param tenant         the tenant
     * @param runId          the run whose raw artifact it opens
     * @param requester      who asked (their user name)
     * @param requesterIdentity their stable identity, the only one who may use the grant; null on
     *                       a grant recorded before identities were (never usable)
     * @param reason         why
     * @param status         PENDING, GRANTED, REFUSED or EXPIRED
     * @param decidedBy      who decided, or null
     * @param decidedByIdentity their stable identity, or null
     * @param decisionReason their reason, or null
     * @param requestedAt    when it was asked for
     * @param decidedAt      when it was decided, or null
     * @param expiresAt      when it lapses or lapsed
     */
    public record GrantView(
            String id,
            String tenant,
            String runId,
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

        /** Whether the person with {@code identity} may use it now: its requester, while granted. */
        public boolean usableBy(String identity) {
            return status == GrantStatus.GRANTED && identity.equals(requesterIdentity);
        }
    }

    /**
     * The digest check made on every read: the artifact's recorded digest (the envelope's
     * reference) against the digest of the bytes stored now.
     *
     * @param recorded the digest recorded when the artifact was stored
     * @param actual   the digest of the stored bytes now
     * @param matches  whether they are equal; false means the stored bytes were changed
     */
    public record Digest(String recorded, String actual, boolean matches) {

        static Digest of(RawSlice slice) {
            return new Digest(slice.expectedSha256(), slice.actualSha256(), slice.digestMatches());
        }
    }

    /**
     * One page of the hex dump.
     *
     * @param grantId        the grant it was read through
     * @param runId          the run
     * @param stream         stdout or stderr
     * @param offset         the offset of the first byte
     * @param length         bytes on this page
     * @param streamBytes    the stream's stored length
     * @param nextOffset     where the next page starts, or null on the last
     * @param previousOffset where the previous page starts, or null on the first
     * @param lines          the dump
     * @param digest         the digest check
     */
    public record HexPage(
            String grantId,
            String runId,
            String stream,
            long offset,
            int length,
            long streamBytes,
            @Nullable Long nextOffset,
            @Nullable Long previousOffset,
            List<HexDump.Line> lines,
            Digest digest) {}

    /**
     * One page of the strict audit view.
     *
     * @param grantId        the grant it was read through
     * @param runId          the run
     * @param stream         stdout or stderr
     * @param offset         the offset of the first byte
     * @param length         bytes on this page
     * @param streamBytes    the stream's stored length
     * @param nextOffset     where the next page starts, or null on the last
     * @param previousOffset where the previous page starts, or null on the first
     * @param text           the bytes in the audit view notation: printable ASCII, with a line break after each
     *                       {@code \x0a} for reading (the decoder ignores raw line breaks)
     * @param digest         the digest check
     */
    public record TextPage(
            String grantId,
            String runId,
            String stream,
            long offset,
            int length,
            long streamBytes,
            @Nullable Long nextOffset,
            @Nullable Long previousOffset,
            String text,
            Digest digest) {}

    /**
     * A stream's bytes to serve as an attachment.
     *
     * @param filename the suggested file name
     * @param bytes    the bytes
     * @param digest   the digest check
     */
    public record Download(String filename, byte[] bytes, Digest digest) {}
}
