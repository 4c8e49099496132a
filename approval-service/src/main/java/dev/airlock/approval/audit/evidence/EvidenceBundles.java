package dev.airlock.approval.audit.evidence;

import dev.airlock.approval.audit.AuditAccess;
import dev.airlock.approval.audit.RawAccess;
import dev.airlock.approval.audit.RunReport;
import dev.airlock.approval.audit.RunReports;
import dev.airlock.approval.grant.GrantRefused;
import dev.airlock.approval.people.Human;
import dev.airlock.evidence.EvidenceFormat;
import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.kernel.problem.RunNotFound;
import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.persistence.envelope.RunViews;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import dev.airlock.persistence.run.StreamName;
import jakarta.persistence.EntityManager;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes evidence bundles (docs/evidence.md): a zip, streamed as it is written, of each run's
 * envelope, request, approval request with its decisions, transcripts and (only through a
 * raw-access grant the exporter holds) raw bytes, the tenant's audit events from the first one
 * about these runs through the chain's head, and a manifest with every entry's SHA-256, signed
 * with the tenant's Ed25519 key. Everything is read in one repeatable-read transaction, so the
 * bundle is one consistent moment of the record; the raw reads and the {@code evidence.exported}
 * event are written in transactions of their own. Memory grows with the manifest's lines only.
 */
@Service
public class EvidenceBundles {

    private static final Logger log = LoggerFactory.getLogger(EvidenceBundles.class);

    /** Runs read per page of a time range (the persistence context is cleared after each). */
    static final int PAGE = 200;

    /**
     * Exports running at once on one replica: each holds a database connection for its whole
     * download (and a second one while it reads raw bytes), so they are few.
     */
    public static final int CONCURRENT = 2;

    private final java.util.concurrent.Semaphore running = new java.util.concurrent.Semaphore(CONCURRENT);

    private final EvidenceKeys keys;
    private final AuditAccess access;
    private final AuditLog audit;
    private final RunRepository runs;
    private final RunViews views;
    private final RunReports reports;
    private final RawAccess raw;
    private final EntityManager entities;
    private final JsonMapper json;
    private final Clock clock;
    private final TransactionTemplate snapshot;
    private final TransactionTemplate own;

    EvidenceBundles(
            EvidenceKeys keys,
            AuditAccess access,
            AuditLog audit,
            RunRepository runs,
            RunViews views,
            RunReports reports,
            RawAccess raw,
            EntityManager entities,
            JsonMapper json,
            Clock clock,
            PlatformTransactionManager transactions) {
        this.keys = keys;
        this.access = access;
        this.audit = audit;
        this.runs = runs;
        this.views = views;
        this.reports = reports;
        this.raw = raw;
        this.entities = entities;
        this.json = json;
        this.clock = clock;
        this.snapshot = new TransactionTemplate(transactions);
        this.snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.snapshot.setReadOnly(true);
        this.own = new TransactionTemplate(transactions);
        this.own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /**
     * Checks that the person may export the tenant's evidence and that the tenant signs; call before
     * the response is committed, so that a refusal is a problem and not a broken download.
     */
    public EvidenceKeys.Keyring prepare(Human exporter, String tenant, EvidenceScope scope) {
        access.requireAuditor(exporter, tenant);
        EvidenceKeys.Keyring ring = keys.keyring(tenant).orElseThrow(() -> new NoEvidenceKey(tenant));
        if (scope.to() != null && scope.to().isAfter(clock.instant().minus(EvidenceFormat.SETTLE))) {
            throw InvalidRequest.field(
                    "to",
                    "Field 'to' must be at least " + EvidenceFormat.SETTLE.toSeconds()
                            + " s in the past: runs requested just before it may still be being recorded, and a"
                            + " bundle of a range that has not ended could not show that it holds them all.");
        }
        if (scope.runId() != null) {
            UUID runId = scope.runId();
            snapshot.executeWithoutResult(
                    s -> runs.findByIdAndTenant(runId, tenant).orElseThrow(() -> RunNotFound.forId(runId)));
        }
        return ring;
    }

    /** What an export wrote. */
    public record Exported(int runs, int rawArtifacts, String manifestSha256) {}

    /**
     * Writes the bundle to {@code out}. The export is recorded in the tenant's chain before the
     * manifest and its signature are written: a bundle that was not recorded is never complete.
     *
     * @throws ExportsBusy when {@link #CONCURRENT} exports are running on this replica already
     */
    public Exported export(
            Human exporter, String tenant, EvidenceScope scope, EvidenceKeys.Keyring ring, OutputStream out) {
        if (!running.tryAcquire()) {
            throw new ExportsBusy();
        }
        try {
            Instant started = clock.instant();
            Exported exported = Objects.requireNonNull(snapshot.execute(s -> {
                try {
                    return write(exporter, tenant, scope, ring, out);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
            log.info(
                    "Evidence bundle of tenant {} exported by {}: {} run(s), {} raw artifact(s), manifest {} ({} ms)",
                    tenant,
                    exporter.name(),
                    exported.runs(),
                    exported.rawArtifacts(),
                    exported.manifestSha256(),
                    java.time.Duration.between(started, clock.instant()).toMillis());
            return exported;
        } finally {
            running.release();
        }
    }

    /** Appends the {@code evidence.exported} event, in a transaction of its own. */
    private void record(
            Human exporter,
            String tenant,
            EvidenceScope scope,
            EvidenceKeys.Keyring ring,
            int runs,
            int rawArtifacts,
            String manifestSha256) {
        Map<String, String> details = new LinkedHashMap<>(scope.describe());
        details.put("runs", Integer.toString(runs));
        details.put("rawArtifacts", Integer.toString(rawArtifacts));
        details.put("manifestSha256", manifestSha256);
        details.put("keyId", ring.signingKey());
        own.executeWithoutResult(s -> audit.append(
                tenant,
                AuditEventType.EVIDENCE_EXPORTED,
                scope.runId(),
                "human:" + exporter.name(),
                details,
                clock.instant()));
    }

    private Exported write(
            Human exporter, String tenant, EvidenceScope scope, EvidenceKeys.Keyring ring, OutputStream out)
            throws IOException {
        // The export's time is when it read the database, not when it finished writing: an anchor
        // taken while a long export was written is newer than the bundle, not evidence of removal.
        Instant[] exportedAt = {clock.instant()};
        ZipOutputStream zip = new ZipOutputStream(out, StandardCharsets.UTF_8);
        List<Map<String, Object>> entries = new ArrayList<>();
        List<Map<String, Object>> included = new ArrayList<>();
        long firstSeq = Long.MAX_VALUE;
        int rawCount = 0;
        UUID after = null;
        while (true) {
            List<UUID> page = page(tenant, scope, after);
            if (page.isEmpty()) {
                break;
            }
            for (UUID runId : page) {
                Map<String, Object> run = writeRun(exporter, tenant, runId, zip, entries);
                rawCount += "included".equals(run.get("raw")) ? 1 : 0;
                included.add(run);
            }
            Optional<Long> first = audit.firstSeqAbout(tenant, page);
            if (first.isPresent()) {
                firstSeq = Math.min(firstSeq, first.get());
            }
            after = page.getLast();
            entities.clear();
            if (included.size() % 1000 < PAGE) {
                log.info("Evidence bundle of tenant {}: {} run(s) written", tenant, included.size());
            }
        }
        AuditLog.Head head = audit.head(tenant)
                .orElseThrow(() -> new IllegalStateException("tenant " + tenant + " has runs but no audit events"));
        long start = firstSeq == Long.MAX_VALUE ? head.seq() : firstSeq;
        if (scope.from() != null) {
            // From an event before the range and before every included run's first event: the verifier
            // can then see every run requested in it.
            start = audit.seqBefore(tenant, scope.from(), start).orElse(start);
        }
        String startHash = audit.prevHashOf(tenant, start).orElseThrow();
        entries.add(writeEvents(tenant, start, head.seq(), zip, exportedAt));

        Map<String, Object> chain = new LinkedHashMap<>();
        chain.put("firstSeq", start);
        chain.put("lastSeq", head.seq());
        chain.put("startHash", startHash);
        chain.put("head", head.hash());
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("format", EvidenceFormat.FORMAT);
        manifest.put("tenant", tenant);
        manifest.put("exportedAt", exportedAt[0].truncatedTo(ChronoUnit.MICROS).toString());
        manifest.put("exportedBy", exporter.name());
        manifest.put("scope", scope.describe());
        manifest.put("keyId", ring.signingKey());
        manifest.put("chain", chain);
        manifest.put("runs", included);
        manifest.put("entries", entries);
        byte[] manifestBytes = json.writeValueAsBytes(manifest);
        String manifestSha256 = EvidenceFormat.sha256Hex(manifestBytes);
        record(exporter, tenant, scope, ring, included.size(), rawCount, manifestSha256);
        zip.putNextEntry(new ZipEntry(EvidenceFormat.MANIFEST));
        zip.write(manifestBytes);
        zip.closeEntry();
        Map<String, Object> signature = new LinkedHashMap<>();
        signature.put("keyId", ring.signingKey());
        signature.put("algorithm", EvidenceFormat.ALGORITHM);
        signature.put("signature", ring.sign(manifestBytes));
        zip.putNextEntry(new ZipEntry(EvidenceFormat.SIGNATURE));
        zip.write(json.writeValueAsBytes(signature));
        zip.closeEntry();
        zip.finish();
        zip.flush();
        return new Exported(included.size(), rawCount, manifestSha256);
    }

    /** The runs after {@code after} (null: from the start): the one run of a run's scope, a page of a range. */
    private List<UUID> page(String tenant, EvidenceScope scope, @Nullable UUID after) {
        UUID runId = scope.runId();
        if (runId != null) {
            return after == null ? List.of(runId) : List.of();
        }
        return runs.idsCreatedBetween(
                tenant,
                Objects.requireNonNull(scope.from()),
                Objects.requireNonNull(scope.to()),
                after == null ? new UUID(0, 0) : after,
                PAGE);
    }

    private Map<String, Object> writeRun(
            Human exporter, String tenant, UUID runId, ZipOutputStream zip, List<Map<String, Object>> entries)
            throws IOException {
        RunRecord record = runs.findByIdAndTenant(runId, tenant).orElseThrow(() -> RunNotFound.forId(runId));
        String folder = EvidenceFormat.runFolder(runId.toString());
        Envelope envelope = views.envelope(record);
        entries.add(entry(zip, folder + "envelope.json", json.writeValueAsBytes(envelope)));
        RunReport.Authorization authorization = reports.authorization(record);
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("agent", authorization.agent());
        request.put("tool", authorization.tool());
        request.put("arguments", authorization.arguments());
        request.put("requestedAt", authorization.requestedAt());
        request.put("approvalRequired", authorization.approvalRequired());
        entries.add(entry(zip, folder + "request.json", json.writeValueAsBytes(request)));
        if (authorization.approval() != null) {
            Map<String, Object> approval = new LinkedHashMap<>(json.convertValue(authorization.approval(), Map.class));
            approval.put("decisions", authorization.decisions());
            entries.add(entry(zip, folder + "approval.json", json.writeValueAsBytes(approval)));
        }
        // The transcripts are the envelope's text, read once with it.
        for (StreamName stream : StreamName.values()) {
            Envelope.StreamView view = stream == StreamName.STDOUT ? envelope.stdout() : envelope.stderr();
            if (view != null && view.text() != null) {
                entries.add(
                        entry(zip, folder + stream.key() + ".txt", view.text().getBytes(StandardCharsets.UTF_8)));
            }
        }
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("runId", runId.toString());
        run.put("rawArtifact", envelope.rawArtifact());
        run.put("raw", rawBytes(exporter, tenant, runId, envelope.rawArtifact(), folder, zip, entries));
        return run;
    }

    /** Writes the raw bytes when the exporter holds a grant; says what became of them. */
    private String rawBytes(
            Human exporter,
            String tenant,
            UUID runId,
            @Nullable String artifact,
            String folder,
            ZipOutputStream zip,
            List<Map<String, Object>> entries)
            throws IOException {
        if (artifact == null) {
            return "none";
        }
        Optional<RawAccess.RawPair> pair;
        try {
            pair = Objects.requireNonNull(own.execute(s -> raw.forEvidence(exporter, tenant, runId)));
        } catch (GrantRefused e) {
            return e.reason() == GrantRefused.Reason.PURGED ? "purged" : "withheld";
        }
        if (pair.isEmpty()) {
            return "withheld";
        }
        if (!pair.get().matches()) {
            log.error(
                    "Evidence bundle of tenant {}: the stored raw bytes of run {} no longer match their digest;"
                            + " left out of the bundle",
                    tenant,
                    runId);
            return "mismatch";
        }
        entries.add(entry(zip, folder + "raw-stdout.bin", pair.get().stdout()));
        entries.add(entry(zip, folder + "raw-stderr.bin", pair.get().stderr()));
        return "included";
    }

    /**
     * Writes the events {@code from} to {@code through}; {@code latest} becomes the latest of its
     * value and the events' times (another replica's clock may run a little ahead of this one's).
     */
    private Map<String, Object> writeEvents(
            String tenant, long from, long through, ZipOutputStream zip, Instant[] latest) throws IOException {
        zip.putNextEntry(new ZipEntry(EvidenceFormat.EVENTS));
        MessageDigest digest = EvidenceFormat.sha256();
        long[] size = {0};
        audit.events(tenant, from, through, event -> {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("seq", event.seq());
            line.put("type", event.type());
            line.put("runId", event.runId() == null ? null : event.runId().toString());
            line.put("actor", event.actor());
            line.put("details", event.details());
            line.put(
                    "occurredAt",
                    event.occurredAt().truncatedTo(ChronoUnit.MICROS).toString());
            if (event.occurredAt().isAfter(latest[0])) {
                latest[0] = event.occurredAt();
            }
            line.put("prevHash", event.prevHash());
            line.put("hash", event.hash());
            byte[] bytes = (json.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8);
            digest.update(bytes);
            size[0] += bytes.length;
            try {
                zip.write(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        zip.closeEntry();
        return listing(EvidenceFormat.EVENTS, HexFormat.of().formatHex(digest.digest()), size[0]);
    }

    private static Map<String, Object> entry(ZipOutputStream zip, String path, byte[] bytes) throws IOException {
        zip.putNextEntry(new ZipEntry(path));
        zip.write(bytes);
        zip.closeEntry();
        return listing(path, EvidenceFormat.sha256Hex(bytes), bytes.length);
    }

    private static Map<String, Object> listing(String path, String sha256, long size) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("path", path);
        entry.put("sha256", sha256);
        entry.put("bytes", size);
        return entry;
    }
}
