package dev.airlock.evidence;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * Checks one evidence bundle against a tenant's public keys and any anchors, in this order, and
 * stops at the first failure ({@link VerificationFailure}, naming it):
 *
 * <ol>
 *   <li>the manifest's signature over its bytes, read through the zip's directory with a bound,
 *       before anything else is inflated or parsed (a forged file costs two bounded reads);
 *   <li>the zip itself: its central directory and its entries read in file order name the same
 *       entries with the same bytes, with nothing before, between or after them (no comment);
 *   <li>the signed manifest's tenant and key: the keys' tenant, the signature's key;
 *   <li>every entry against the manifest's SHA-256 and size; no entry the manifest does not list,
 *       and none that is not a known part of a listed run;
 *   <li>the runs: each listed once; the one run of a run's bundle; every run of a range whose
 *       {@code run.requested} event falls in it, and no other;
 *   <li>the audit chain: each event's hash recomputed from the stated starting hash, numbers
 *       without gaps, no event after the export, the last hash equal to the stated head;
 *   <li>each run: its request is the one its {@code run.requested} event digested; its envelope
 *       names it and the tenant; its streams' digests, transcripts' text digests, raw artifact and
 *       exit code are the ones its {@code run.finished} event recorded; its raw bytes, where
 *       included, hash to them;
 *   <li>each approval: the action text hashes to its digest, and every decision and every approval
 *       event names that digest; each decision has its event; a run that ran had as many distinct
 *       approvers as its {@code approval.requested} event asked for; the action that ran was the
 *       approved one;
 *   <li>each anchor: signed by the tenant's key, taken no later than the export, and its event is
 *       in the chain with its hash.
 * </ol>
 *
 * Memory grows with the number of runs, not with the bundle's bytes: entries are streamed, and of
 * the chain only the events of the listed runs are kept.
 */
public final class BundleVerifier {

    /** The largest JSON entry (manifest, envelope, approval, request, a transcript) read into memory. */
    static final int MAX_TEXT_ENTRY = 64 * 1024 * 1024;

    private static final Set<String> RUN_ENTRIES = Set.of(
            "envelope.json",
            "request.json",
            "approval.json",
            "stdout.txt",
            "stderr.txt",
            "raw-stdout.bin",
            "raw-stderr.bin");

    private final PublicKeys keys;
    private final List<Anchor> anchors;
    private final PrintStream out;

    /**
     * @param keys    the tenant's public keys, obtained apart from the bundle
     * @param anchors anchors kept by the auditor, possibly none
     * @param out     where each passed check is reported
     */
    public BundleVerifier(PublicKeys keys, List<Anchor> anchors, PrintStream out) {
        this.keys = keys;
        this.anchors = List.copyOf(anchors);
        this.out = out;
    }

    /** One audit event of a listed run as the bundle holds it. */
    private record Event(long seq, String type, String actor, Map<String, Object> details, String occurredAt) {}

    /** An entry as read in file order: its SHA-256 and size. */
    private record Local(String sha256, long size) {}

    /** Summary of a bundle that passed. */
    public record Verified(String tenant, int runs, long events, int rawArtifacts, String head) {}

    /** The largest signature entry read. */
    static final int MAX_SIGNATURE_ENTRY = 4096;

    /**
     * Verifies {@code bundle}; returns what was checked or throws the first failure. The file is
     * read once, into a private copy that every check then reads: a bundle on a shared folder that
     * is replaced while it is verified cannot have one version's signature vouch for another's
     * entries. The manifest's signature is checked first, on its bytes as stored, before anything
     * else of the bundle is inflated or parsed: a forged file cannot make the verifier do more work
     * than copying it once and reading the zip's directory and two bounded entries.
     */
    public Verified verify(Path bundle) throws IOException {
        Path dir = Files.createTempDirectory("airlock-verify-");
        Path copy = dir.resolve("bundle.zip");
        try {
            try (InputStream in = Files.newInputStream(bundle)) {
                Files.copy(in, copy);
            }
            return verifyCopy(copy);
        } finally {
            Files.deleteIfExists(copy);
            Files.deleteIfExists(dir);
        }
    }

    private Verified verifyCopy(Path bundle) throws IOException {
        byte[] manifestBytes;
        String keyId;
        try (ZipFile zip = new ZipFile(bundle.toFile(), StandardCharsets.UTF_8)) {
            manifestBytes = read(zip, EvidenceFormat.MANIFEST, MAX_TEXT_ENTRY);
            keyId = checkSignature(read(zip, EvidenceFormat.SIGNATURE, MAX_SIGNATURE_ENTRY), manifestBytes);
        } catch (java.util.zip.ZipException e) {
            throw new VerificationFailure("bundle: not a well-formed zip (" + e.getMessage() + ")");
        }
        ZipContainer.check(bundle);
        Map<String, Local> local = localEntries(bundle);
        try (ZipFile zip = new ZipFile(bundle.toFile(), StandardCharsets.UTF_8)) {
            // The signed bytes read above are the manifest from here on: every entry is checked against them.
            Map<String, ZipEntry> entries = entries(zip, local);
            Map<String, Object> manifest = json(manifestBytes, EvidenceFormat.MANIFEST);
            if (!EvidenceFormat.FORMAT.equals(manifest.get("format"))) {
                throw new VerificationFailure("manifest: format is not " + EvidenceFormat.FORMAT);
            }
            String tenant = Fields.string(manifest, "tenant", "manifest");
            String exportedAt = Fields.string(manifest, "exportedAt", "manifest");
            instant(exportedAt, "manifest exportedAt");
            checkSigner(manifest, tenant, keyId);
            Map<String, Map<String, Object>> runs = runs(manifest);
            checkEntries(zip, entries, local, manifest, runs.keySet());
            Map<String, Object> chain = Fields.object(manifest, "chain", "manifest");
            Map<String, List<Event>> byRun = new HashMap<>();
            Map<Long, String> anchored = new HashMap<>();
            anchors.forEach(a -> anchored.put(a.seq(), ""));
            Set<String> requestedInRange = new HashSet<>();
            Instant[] range = range(manifest);
            long events = checkChain(
                    zip, entries, tenant, chain, exportedAt, runs.keySet(), byRun, anchored, range, requestedInRange);
            checkScope(manifest, runs.keySet(), byRun, requestedInRange);
            int raw = 0;
            for (Map<String, Object> run : runs.values()) {
                raw += checkRun(zip, entries, local, tenant, run, byRun) ? 1 : 0;
            }
            out.printf(
                    "runs: %d checked (requests, envelopes, transcripts, approvals and decisions; %d raw artifact(s))%n",
                    runs.size(), raw);
            checkAnchors(tenant, chain, exportedAt, anchored);
            return new Verified(tenant, runs.size(), events, raw, Fields.string(chain, "head", "manifest chain"));
        }
    }

    /** Every entry as read from the start of the file, in order; the stream must end where the central directory starts. */
    private static Map<String, Local> localEntries(Path bundle) throws IOException {
        Map<String, Local> local = new LinkedHashMap<>();
        try (ZipInputStream in =
                new ZipInputStream(new BufferedInputStream(Files.newInputStream(bundle)), StandardCharsets.UTF_8)) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                MessageDigest digest = EvidenceFormat.sha256();
                long size = feed(in, digest);
                if (local.put(entry.getName(), new Local(HexFormat.of().formatHex(digest.digest()), size)) != null) {
                    throw new VerificationFailure("bundle: entry " + entry.getName() + " appears twice");
                }
            }
        } catch (java.util.zip.ZipException e) {
            throw new VerificationFailure("bundle: not a well-formed zip (" + e.getMessage() + ")");
        }
        return local;
    }

    /** The central directory, which must list exactly the entries read in file order, in that order. */
    private static Map<String, ZipEntry> entries(ZipFile zip, Map<String, Local> local) {
        if (zip.getComment() != null && !zip.getComment().isEmpty()) {
            throw new VerificationFailure("bundle: the zip has a comment; a bundle has none");
        }
        Map<String, ZipEntry> entries = new LinkedHashMap<>();
        Enumeration<? extends ZipEntry> all = zip.entries();
        while (all.hasMoreElements()) {
            ZipEntry entry = all.nextElement();
            String name = entry.getName();
            if (entries.put(name, entry) != null) {
                throw new VerificationFailure("bundle: entry " + name + " appears twice");
            }
            if (name.startsWith("/")
                    || name.contains("\\")
                    || name.contains("..")
                    || name.contains("//")
                    || name.chars().anyMatch(c -> c < 0x20)) {
                throw new VerificationFailure(
                        "bundle: entry name " + Json.quote(name) + " is not a plain relative path");
            }
        }
        if (!List.copyOf(entries.keySet()).equals(List.copyOf(local.keySet()))) {
            throw new VerificationFailure("bundle: the zip's directory and its entries in file order differ"
                    + " (hidden, renamed or extra entries)");
        }
        return entries;
    }

    /**
     * Checks the signature over the manifest's bytes with the tenant's key it names; returns that
     * key's id. Only the small signature entry is parsed here.
     */
    private String checkSignature(byte[] signatureBytes, byte[] manifestBytes) {
        Map<String, Object> signature = json(signatureBytes, EvidenceFormat.SIGNATURE);
        String keyId = Fields.string(signature, "keyId", EvidenceFormat.SIGNATURE);
        if (!EvidenceFormat.ALGORITHM.equals(signature.get("algorithm"))) {
            throw new VerificationFailure("signature: the algorithm is not " + EvidenceFormat.ALGORITHM);
        }
        if (!keys.keys().containsKey(keyId)) {
            throw new VerificationFailure("signature: key " + keyId + " is not a key of tenant " + keys.tenant()
                    + " (known: " + String.join(", ", keys.ids())
                    + "); a bundle of another tenant needs that tenant's keys");
        }
        if (!keys.verifies(keyId, manifestBytes, Fields.string(signature, "signature", EvidenceFormat.SIGNATURE))) {
            throw new VerificationFailure("signature: the manifest's signature does not verify with key " + keyId);
        }
        return keyId;
    }

    /** The signed manifest must be of the keys' tenant and name the key that signed it. */
    private void checkSigner(Map<String, Object> manifest, String tenant, String keyId) {
        if (!tenant.equals(keys.tenant())) {
            throw new VerificationFailure(
                    "signature: the bundle is of tenant " + tenant + ", the keys are of tenant " + keys.tenant());
        }
        if (!keyId.equals(manifest.get("keyId"))) {
            throw new VerificationFailure(
                    "signature: the manifest names key " + manifest.get("keyId") + ", the signature is by " + keyId);
        }
        out.printf("signature: valid, %s key %s of tenant %s%n", EvidenceFormat.ALGORITHM, keyId, tenant);
    }

    /** The manifest's runs by id, each listed once. */
    private static Map<String, Map<String, Object>> runs(Map<String, Object> manifest) {
        Map<String, Map<String, Object>> runs = new LinkedHashMap<>();
        for (Object item : Fields.list(manifest, "runs", "manifest")) {
            Map<String, Object> run = Fields.asObject(item, "manifest: a run");
            String runId = Fields.string(run, "runId", "manifest run");
            if (!runId.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")) {
                throw new VerificationFailure("manifest: " + Json.quote(runId) + " is not a run id");
            }
            if (runs.put(runId, run) != null) {
                throw new VerificationFailure("manifest: run " + runId + " is listed twice");
            }
        }
        return runs;
    }

    private void checkEntries(
            ZipFile zip,
            Map<String, ZipEntry> entries,
            Map<String, Local> local,
            Map<String, Object> manifest,
            Set<String> runs)
            throws IOException {
        Set<String> listed = new HashSet<>(Set.of(EvidenceFormat.MANIFEST, EvidenceFormat.SIGNATURE));
        for (Object item : Fields.list(manifest, "entries", "manifest")) {
            Map<String, Object> entry = Fields.asObject(item, "manifest: an entry");
            String path = Fields.string(entry, "path", "manifest entry");
            if (!listed.add(path)) {
                throw new VerificationFailure("manifest: entry " + path + " is listed twice");
            }
            if (!path.equals(EvidenceFormat.EVENTS) && !isRunEntry(path, runs)) {
                throw new VerificationFailure("manifest: entry " + path + " is no part of a bundle or of a listed run");
            }
            ZipEntry zipped = entries.get(path);
            if (zipped == null) {
                throw new VerificationFailure("entry " + path + ": listed in the manifest but missing");
            }
            MessageDigest digest = EvidenceFormat.sha256();
            long size;
            try (InputStream in = zip.getInputStream(zipped)) {
                size = feed(in, digest);
            }
            String sha256 = HexFormat.of().formatHex(digest.digest());
            Local inOrder = local.get(path);
            if (size != Fields.number(entry, "bytes", "manifest entry " + path)
                    || !sha256.equals(Fields.string(entry, "sha256", path))
                    || !inOrder.sha256().equals(sha256)
                    || inOrder.size() != size) {
                throw new VerificationFailure(
                        "entry " + path + ": its bytes do not match the manifest's SHA-256 and size");
            }
        }
        for (String name : entries.keySet()) {
            if (!listed.contains(name)) {
                throw new VerificationFailure("entry " + name + ": not listed in the manifest");
            }
        }
        out.printf("entries: %d, each matching the manifest's SHA-256 and size, read both ways%n", listed.size() - 2);
    }

    private static boolean isRunEntry(String path, Set<String> runs) {
        if (!path.startsWith("runs/")) {
            return false;
        }
        int slash = path.indexOf('/', "runs/".length());
        return slash > 0
                && runs.contains(path.substring("runs/".length(), slash))
                && RUN_ENTRIES.contains(path.substring(slash + 1));
    }

    private long checkChain(
            ZipFile zip,
            Map<String, ZipEntry> entries,
            String tenant,
            Map<String, Object> chain,
            String exportedAt,
            Set<String> runs,
            Map<String, List<Event>> byRun,
            Map<Long, String> anchored,
            Instant[] range,
            Set<String> requestedInRange)
            throws IOException {
        long first = Fields.number(chain, "firstSeq", "manifest chain");
        long expected = first;
        long last = Fields.number(chain, "lastSeq", "manifest chain");
        String prev = Fields.string(chain, "startHash", "manifest chain");
        if (first == 1 && !prev.equals(EvidenceFormat.GENESIS)) {
            throw new VerificationFailure("audit chain: it starts at event 1 but not from the genesis hash");
        }
        Instant exported = instant(exportedAt, "manifest exportedAt");
        ZipEntry entry = entries.get(EvidenceFormat.EVENTS);
        if (entry == null) {
            throw new VerificationFailure("entry " + EvidenceFormat.EVENTS + ": missing");
        }
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                zip.getInputStream(entry),
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)))) {
            for (String line; (line = lines.readLine()) != null; ) {
                String where = "audit event " + expected;
                Map<String, Object> fields = json(line, where);
                long seq = Fields.number(fields, "seq", where);
                if (seq != expected) {
                    throw new VerificationFailure("audit chain: event " + expected + " is missing (found " + seq + ")");
                }
                if (!prev.equals(Fields.string(fields, "prevHash", where))) {
                    throw new VerificationFailure(where + ": does not follow the hash of the event before it");
                }
                String type = Fields.string(fields, "type", where);
                String runId = fields.get("runId") == null ? "" : Fields.string(fields, "runId", where);
                String actor = Fields.string(fields, "actor", where);
                String details = Fields.string(fields, "details", where);
                String occurredAt = Fields.string(fields, "occurredAt", where);
                String hash = EvidenceFormat.chainHash(prev, tenant, seq, type, runId, actor, details, occurredAt);
                if (!hash.equals(Fields.string(fields, "hash", where))) {
                    throw new VerificationFailure(where + " (" + type + "): its content does not match its hash");
                }
                Instant at = instant(occurredAt, where);
                if (at.isAfter(exported)) {
                    throw new VerificationFailure(where + ": it occurred after the bundle says it was exported");
                }
                if (range != null && seq == first && seq != 1 && !at.isBefore(range[0])) {
                    throw new VerificationFailure("audit chain: it starts within the bundle's range, so runs requested"
                            + " before its first event cannot be shown to be all there");
                }
                if (range != null && type.equals("run.requested") && !at.isBefore(range[0]) && at.isBefore(range[1])) {
                    requestedInRange.add(runId);
                }
                if (runs.contains(runId)) {
                    byRun.computeIfAbsent(runId, r -> new ArrayList<>())
                            .add(new Event(seq, type, actor, json(details, where + " details"), occurredAt));
                }
                if (anchored.containsKey(seq)) {
                    anchored.put(seq, hash);
                }
                prev = hash;
                expected++;
            }
        } catch (java.io.UncheckedIOException | CharacterCodingException e) {
            throw new VerificationFailure("entry " + EvidenceFormat.EVENTS + ": not UTF-8");
        }
        if (expected - 1 != last) {
            throw new VerificationFailure(
                    "audit chain: the manifest says it ends at event " + last + ", it ends at " + (expected - 1));
        }
        if (!prev.equals(Fields.string(chain, "head", "manifest chain"))) {
            throw new VerificationFailure("audit chain: its last hash is not the manifest's head");
        }
        out.printf(
                "audit chain: %d event(s), %d to %d, recomputed from %s to head %s%n",
                expected - first, first, last, Fields.string(chain, "startHash", "manifest chain"), prev);
        return expected - first;
    }

    /** A range bundle's {@code [from, to)}, or null for a bundle of one run. */
    private static Instant[] range(Map<String, Object> manifest) {
        Map<String, Object> scope = Fields.object(manifest, "scope", "manifest");
        if (scope.containsKey("runId")) {
            return null;
        }
        return new Instant[] {
            instant(Fields.string(scope, "from", "manifest scope"), "manifest scope from"),
            instant(Fields.string(scope, "to", "manifest scope"), "manifest scope to")
        };
    }

    /** The listed runs are the scope's: the one run, or every run whose request falls in the range, and no other. */
    private void checkScope(
            Map<String, Object> manifest,
            Set<String> runs,
            Map<String, List<Event>> byRun,
            Set<String> requestedInRange) {
        Map<String, Object> scope = Fields.object(manifest, "scope", "manifest");
        if (scope.containsKey("runId")) {
            if (!runs.equals(Set.of(Fields.string(scope, "runId", "manifest scope")))) {
                throw new VerificationFailure(
                        "manifest: a bundle of run " + scope.get("runId") + " lists runs " + runs);
            }
            out.printf("scope: run %s%n", scope.get("runId"));
            return;
        }
        Instant from = instant(Fields.string(scope, "from", "manifest scope"), "manifest scope from");
        Instant to = instant(Fields.string(scope, "to", "manifest scope"), "manifest scope to");
        Instant exported = instant(Fields.string(manifest, "exportedAt", "manifest"), "manifest exportedAt");
        if (to.isAfter(exported.minus(EvidenceFormat.SETTLE))) {
            throw new VerificationFailure("scope: the range ends at " + to + ", less than "
                    + EvidenceFormat.SETTLE.toSeconds() + " s before the bundle was exported (" + exported
                    + "): runs requested near its end may not have been recorded yet, so it cannot show"
                    + " that it holds them all");
        }
        for (String runId : runs) {
            Event requested = requested(runId, byRun);
            Instant at = instant(requested.occurredAt(), "run " + runId);
            if (at.isBefore(from) || !at.isBefore(to)) {
                throw new VerificationFailure("run " + runId + ": requested at " + at + ", outside the bundle's range");
            }
        }
        for (String runId : requestedInRange) {
            if (!runs.contains(runId)) {
                throw new VerificationFailure("run " + runId + ": requested within the bundle's range but not in it");
            }
        }
        out.printf("scope: %d run(s) requested from %s to %s%n", runs.size(), from, to);
    }

    /** The run's run.requested event. */
    private static Event requested(String runId, Map<String, List<Event>> byRun) {
        return byRun.getOrDefault(runId, List.of()).stream()
                .filter(e -> e.type().equals("run.requested"))
                .findFirst()
                .orElseThrow(
                        () -> new VerificationFailure("run " + runId + ": no run.requested event in the audit chain"));
    }

    /** Returns whether the run's raw artifact was included and checked. */
    private boolean checkRun(
            ZipFile zip,
            Map<String, ZipEntry> entries,
            Map<String, Local> local,
            String tenant,
            Map<String, Object> run,
            Map<String, List<Event>> byRun)
            throws IOException {
        String runId = Fields.string(run, "runId", "manifest run");
        String folder = EvidenceFormat.runFolder(runId);
        String where = "run " + runId;
        List<Event> events = byRun.getOrDefault(runId, List.of());
        Event requested = requested(runId, byRun);

        Map<String, Object> request = json(read(zip, entries, folder + "request.json"), where + " request");
        String tool = Fields.string(request, "tool", where + " request");
        String arguments = Fields.string(request, "arguments", where + " request");
        if (!EvidenceFormat.sha256Hex((tool + "\n" + arguments).getBytes(StandardCharsets.UTF_8))
                        .equals(requested.details().get("request"))
                || !tool.equals(requested.details().get("tool"))
                || !requested.actor().equals("agent:" + request.get("agent"))) {
            throw new VerificationFailure(where + ": its request is not the one its run.requested event recorded");
        }

        Map<String, Object> envelope = json(read(zip, entries, folder + "envelope.json"), where + " envelope");
        if (!runId.equals(envelope.get("runId"))
                || !tenant.equals(envelope.get("tenant"))
                || !tool.equals(envelope.get("tool"))
                || !Objects.equals(envelope.get("agent"), request.get("agent"))) {
            throw new VerificationFailure(where + ": its envelope names another run, tenant, tool or agent");
        }
        Event finished = events.stream()
                .filter(e -> e.type().equals("run.finished"))
                .findFirst()
                .orElse(null);
        boolean hasOutput = envelope.get("stdout") != null || envelope.get("stderr") != null;
        if (hasOutput && finished == null) {
            throw new VerificationFailure(where + ": its envelope has output but the chain has no run.finished event");
        }
        String artifact = Fields.stringOrNull(envelope, "rawArtifact", where + " envelope");
        if (finished != null) {
            if (!Objects.equals(artifact, finished.details().get("rawArtifact"))) {
                throw new VerificationFailure(
                        where + ": the envelope's rawArtifact is not the one its run.finished event" + " recorded");
            }
            for (String stream : List.of("stdout", "stderr")) {
                checkStream(zip, entries, folder, where, envelope, finished, stream);
            }
            checkEnd(where, envelope, finished);
        } else {
            checkNotEnded(where, envelope);
        }
        boolean raw = checkRaw(zip, entries, local, run, folder, where, envelope, artifact);
        checkApproval(zip, entries, folder, where, envelope, events);
        return raw;
    }

    /**
     * The envelope's facts of how the run ended (its state, termination and what it observed of an
     * upstream's answer) against what its run.finished event recorded: a run's row could be changed
     * before an export, its chain cannot. Events recorded before Airlock wrote the state lack it.
     */
    private static void checkEnd(String where, Map<String, Object> envelope, Event finished) {
        Object state = finished.details().get("state");
        if (state != null && !state.equals(envelope.get("state"))) {
            throw new VerificationFailure(
                    where + ": the envelope's state is not the one its run.finished event recorded");
        }
        checkFacts(
                where,
                envelope,
                finished,
                "process",
                "exitCode",
                List.of(Map.entry("exitCode", "exitCode"), Map.entry("termination", "termination")));
        checkFacts(
                where,
                envelope,
                finished,
                "http",
                "upstream",
                List.of(
                        Map.entry("termination", "termination"),
                        Map.entry("upstream", "upstream"),
                        Map.entry("status", "status"),
                        Map.entry("attempts", "attempts"),
                        Map.entry("reason", "reason")));
        checkFacts(
                where,
                envelope,
                finished,
                "mcp",
                "mcpServer",
                List.of(
                        Map.entry("termination", "termination"),
                        Map.entry("server", "mcpServer"),
                        Map.entry("tool", "mcpTool"),
                        Map.entry("isError", "isError"),
                        Map.entry("errorCode", "errorCode"),
                        Map.entry("reason", "reason")));
    }

    /**
     * A run whose chain has no run.finished event never ran to an end Airlock recorded (it was
     * denied, expired, cancelled before it started, failed to start or was lost): its envelope may
     * not say that it completed or timed out, nor carry an exit code or an upstream's status.
     */
    private static void checkNotEnded(String where, Map<String, Object> envelope) {
        Object state = envelope.get("state");
        if ("COMPLETED".equals(state) || "TIMED_OUT".equals(state)) {
            throw new VerificationFailure(
                    where + ": the envelope says " + state + " but the chain has no run.finished event");
        }
        for (String part : List.of("process", "http", "mcp")) {
            if (envelope.get(part) instanceof Map<?, ?> facts
                    && (facts.get("exitCode") != null || facts.get("status") != null)) {
                throw new VerificationFailure(where + ": the envelope's " + part
                        + " has an exit code or a status but the chain has no run.finished event");
            }
        }
    }

    /**
     * Each field of the envelope's {@code part}, when it has one, as the event's detail it is paired
     * with (absent: null); a part left out while the event recorded {@code recordedOnlyOfIt} fails.
     */
    private static void checkFacts(
            String where,
            Map<String, Object> envelope,
            Event finished,
            String part,
            String recordedOnlyOfIt,
            List<Map.Entry<String, String>> fields) {
        if (!(envelope.get(part) instanceof Map<?, ?> facts)) {
            // Left out, the part would hide what the event recorded of it.
            if (finished.details().get(recordedOnlyOfIt) != null) {
                throw new VerificationFailure(
                        where + ": the envelope has no " + part + " facts but its run.finished event recorded them");
            }
            return;
        }
        for (Map.Entry<String, String> pair : fields) {
            String field = pair.getKey();
            Object stated = facts.get(field);
            if (!Objects.equals(
                    stated == null ? null : stated.toString(),
                    finished.details().get(pair.getValue()))) {
                throw new VerificationFailure(where + ": the envelope's " + part + " " + field
                        + " is not the one its run.finished event recorded");
            }
        }
    }

    private void checkStream(
            ZipFile zip,
            Map<String, ZipEntry> entries,
            String folder,
            String where,
            Map<String, Object> envelope,
            Event finished,
            String stream)
            throws IOException {
        String at = where + " envelope " + stream;
        Map<String, Object> facts = Fields.asObject(envelope.get(stream), at);
        if (!Objects.equals(facts.get("sha256"), finished.details().get(stream + "Sha256"))) {
            throw new VerificationFailure(
                    where + ": the envelope's " + stream + " SHA-256 is not the one its run.finished event recorded");
        }
        String text = Fields.stringOrNull(facts, "text", at);
        ZipEntry transcript = entries.get(folder + stream + ".txt");
        if (text == null) {
            if (transcript != null) {
                throw new VerificationFailure(where + ": a " + stream + " transcript for an envelope without one");
            }
            return;
        }
        if (transcript == null) {
            throw new VerificationFailure(where + ": the " + stream + " transcript is missing");
        }
        String stored = utf8(read(zip, entries, folder + stream + ".txt"), where + " " + stream + " transcript");
        if (!stored.equals(text)) {
            throw new VerificationFailure(where + ": the " + stream + " transcript is not the envelope's text");
        }
        Object recorded = finished.details().get(stream + "TextSha256");
        if (recorded != null && !recorded.equals(EvidenceFormat.sha256Hex(stored.getBytes(StandardCharsets.UTF_8)))) {
            throw new VerificationFailure(
                    where + ": the " + stream + " transcript is not the text its run.finished event recorded");
        }
        if (recorded == null) {
            out.printf(
                    "%s: finished before Airlock recorded transcript digests; its %s text is checked against the"
                            + " envelope only%n",
                    where, stream);
        }
    }

    private boolean checkRaw(
            ZipFile zip,
            Map<String, ZipEntry> entries,
            Map<String, Local> local,
            Map<String, Object> run,
            String folder,
            String where,
            Map<String, Object> envelope,
            String artifact)
            throws IOException {
        boolean included = "included".equals(run.get("raw"));
        boolean present =
                entries.containsKey(folder + "raw-stdout.bin") || entries.containsKey(folder + "raw-stderr.bin");
        if (included != present) {
            throw new VerificationFailure(where + ": the manifest says raw " + run.get("raw") + ", the bundle "
                    + (present ? "holds" : "lacks") + " its raw bytes");
        }
        if (!included) {
            return false;
        }
        if (artifact == null) {
            throw new VerificationFailure(where + ": raw bytes for an envelope without a rawArtifact");
        }
        MessageDigest digest = EvidenceFormat.rawArtifactDigest();
        for (String stream : List.of("stdout", "stderr")) {
            String name = folder + "raw-" + stream + ".bin";
            Local bytes = local.get(name);
            if (bytes == null) {
                throw new VerificationFailure("entry " + name + ": missing");
            }
            digest.update(EvidenceFormat.rawStreamHeader(stream, bytes.size()));
            try (InputStream in = zip.getInputStream(entries.get(name))) {
                feed(in, digest);
            }
            Map<String, Object> facts = Fields.asObject(envelope.get(stream), where + " envelope " + stream);
            // retainedBytes counts the bytes kept as the tool wrote them; a replaced secret value
            // changes the length of what is stored, so then only the digests below bind the bytes.
            boolean redacted = facts.get("redactions") instanceof Number n && n.longValue() > 0;
            if (!redacted && Fields.number(facts, "retainedBytes", where) != bytes.size()) {
                throw new VerificationFailure(
                        where + ": the raw " + stream + " is not the envelope's retainedBytes long");
            }
            if (!(facts.get("truncated") instanceof Boolean truncated)) {
                throw new VerificationFailure(
                        where + ": the envelope's " + stream + " does not say whether it was truncated");
            }
            if (!truncated && !bytes.sha256().equals(facts.get("sha256"))) {
                throw new VerificationFailure(
                        where + ": the raw " + stream + " does not hash to the envelope's sha256");
            }
        }
        if (!artifact.equals("restricted:sha256:" + HexFormat.of().formatHex(digest.digest()))) {
            throw new VerificationFailure(where + ": the raw artifact does not hash to the envelope's rawArtifact");
        }
        return true;
    }

    private void checkApproval(
            ZipFile zip,
            Map<String, ZipEntry> entries,
            String folder,
            String where,
            Map<String, Object> envelope,
            List<Event> events)
            throws IOException {
        ZipEntry entry = entries.get(folder + "approval.json");
        Event opened = events.stream()
                .filter(e -> e.type().equals("approval.requested"))
                .findFirst()
                .orElse(null);
        if (entry == null) {
            if (opened != null || events.stream().anyMatch(e -> e.type().startsWith("approval."))) {
                throw new VerificationFailure(where + ": its approval request is missing");
            }
            Object approval = envelope.get("approval");
            if (approval instanceof Map<?, ?> facts && Boolean.TRUE.equals(facts.get("required"))) {
                throw new VerificationFailure(where + ": approval was required but the bundle has no approval request");
            }
            return;
        }
        if (opened == null) {
            throw new VerificationFailure(where + ": an approval request without its approval.requested event");
        }
        Map<String, Object> approval = json(read(zip, entries, folder + "approval.json"), where + " approval");
        String action = Fields.string(approval, "action", where + " approval");
        String digest = Fields.string(approval, "digest", where + " approval");
        if (!EvidenceFormat.sha256Hex(action.getBytes(StandardCharsets.UTF_8)).equals(digest)) {
            throw new VerificationFailure(where + ": the approved action does not hash to its digest");
        }
        long needed = Fields.number(approval, "approversRequired", where + " approval");
        if (!Long.toString(needed).equals(opened.details().get("approvers"))) {
            throw new VerificationFailure(where + ": the approval request asks for " + needed
                    + " approver(s), its approval.requested event for "
                    + opened.details().get("approvers"));
        }
        Set<String> approvers = new LinkedHashSet<>();
        List<Object> decisions = Fields.list(approval, "decisions", where + " approval");
        for (Object item : decisions) {
            Map<String, Object> decision = Fields.asObject(item, where + " decision");
            if (!digest.equals(decision.get("digest"))) {
                throw new VerificationFailure(
                        where + ": a decision by " + decision.get("approver") + " names another action digest");
            }
            if ("APPROVE".equals(decision.get("decision"))) {
                // One person under two spellings of a name is one approver, as the gateway counts them.
                approvers.add(EvidenceFormat.personKey(Fields.string(decision, "approver", where + " decision")));
            }
        }
        List<Event> decided = new ArrayList<>();
        boolean actionRecorded = false;
        for (Event event : events) {
            if (event.type().equals("approval.requested") || event.type().equals("approval.decided")) {
                if (!digest.equals(event.details().get("digest"))) {
                    throw new VerificationFailure(where + ": audit event " + event.seq() + " (" + event.type()
                            + ") names another action digest");
                }
                if (event.type().equals("approval.decided")) {
                    decided.add(event);
                }
            }
            if ((event.type().equals("run.started") || event.type().equals("run.finished"))
                    && event.details().containsKey("action")) {
                if (!digest.equals(event.details().get("action"))) {
                    throw new VerificationFailure(where + ": the action that ran (audit event " + event.seq()
                            + ") is not the approved action");
                }
                actionRecorded = true;
            }
        }
        if (decided.size() != decisions.size()) {
            throw new VerificationFailure(where + ": " + decisions.size() + " decision(s) but " + decided.size()
                    + " approval.decided event(s)");
        }
        List<Event> unmatched = new ArrayList<>(decided);
        for (Object item : decisions) {
            Map<String, Object> decision = Fields.asObject(item, where + " decision");
            String actor = "human:" + decision.get("approver");
            Event event = unmatched.stream()
                    .filter(e -> e.actor().equals(actor)
                            && Objects.equals(e.details().get("decision"), decision.get("decision")))
                    .findFirst()
                    .orElseThrow(() -> new VerificationFailure(where + ": the decision " + decision.get("decision")
                            + " by " + decision.get("approver") + " has no approval.decided event"));
            unmatched.remove(event);
        }
        boolean ran = events.stream()
                .anyMatch(e -> e.type().equals("run.started") || e.type().equals("run.finished"));
        if (ran && approvers.size() < needed) {
            throw new VerificationFailure(
                    where + ": it ran with " + approvers.size() + " approver(s) of " + needed + " required");
        }
        if (ran && !actionRecorded) {
            out.printf(
                    "%s: ran before Airlock recorded the digest of the action it ran; only the approval is checked%n",
                    where);
        }
    }

    private void checkAnchors(String tenant, Map<String, Object> chain, String exportedAt, Map<Long, String> anchored) {
        long first = Fields.number(chain, "firstSeq", "manifest chain");
        long last = Fields.number(chain, "lastSeq", "manifest chain");
        Instant exported = instant(exportedAt, "manifest exportedAt");
        for (Anchor anchor : anchors) {
            String where = "anchor of event " + anchor.seq() + " at " + anchor.at();
            if (!anchor.tenant().equals(tenant)) {
                throw new VerificationFailure(
                        where + ": it is of tenant " + anchor.tenant() + ", the bundle of " + tenant);
            }
            if (!keys.verifies(anchor.keyId(), anchor.payload(), anchor.signature())) {
                throw new VerificationFailure(
                        where + ": its signature does not verify with the tenant's key " + anchor.keyId());
            }
            if (anchor.seq() >= first && anchor.seq() <= last) {
                if (!anchored.get(anchor.seq()).equals(anchor.head())) {
                    throw new VerificationFailure(where + ": the chain's event " + anchor.seq()
                            + " has another hash: the chain was rewritten");
                }
                out.printf("%s: matches the chain%n", where);
                continue;
            }
            if (anchor.seq() < first) {
                out.printf("%s: before the bundle's chain (from event %d); nothing to compare%n", where, first);
                continue;
            }
            if (instant(anchor.at(), where).isAfter(exported)) {
                throw new VerificationFailure(where + ": it is newer than the bundle (exported " + exportedAt
                        + "), so the bundle cannot show the events up to it; export a bundle after the anchor");
            }
            throw new VerificationFailure(where + ": the bundle's chain ends at event " + last
                    + ", before the anchored event: events were removed");
        }
    }

    private static byte[] read(ZipFile zip, Map<String, ZipEntry> entries, String name) throws IOException {
        return read(zip, entries.get(name), name, MAX_TEXT_ENTRY);
    }

    /** An entry found by the zip's own look-up (before the container is checked), read up to {@code limit} bytes. */
    private static byte[] read(ZipFile zip, String name, int limit) throws IOException {
        return read(zip, zip.getEntry(name), name, limit);
    }

    private static byte[] read(ZipFile zip, ZipEntry entry, String name, int limit) throws IOException {
        if (entry == null) {
            throw new VerificationFailure("entry " + name + ": missing");
        }
        try (InputStream in = zip.getInputStream(entry)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            byte[] buffer = new byte[65536];
            for (int n; (n = in.read(buffer)) > 0; ) {
                if (bytes.size() + n > limit) {
                    throw new VerificationFailure("entry " + name + ": larger than " + limit + " bytes");
                }
                bytes.write(buffer, 0, n);
            }
            return bytes.toByteArray();
        }
    }

    /** Feeds the rest of {@code in} to {@code digest}; returns how many bytes that was. */
    private static long feed(InputStream in, MessageDigest digest) throws IOException {
        byte[] buffer = new byte[65536];
        long size = 0;
        for (int n; (n = in.read(buffer)) > 0; ) {
            digest.update(buffer, 0, n);
            size += n;
        }
        return size;
    }

    private static String utf8(byte[] bytes, String where) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new VerificationFailure(where + ": not UTF-8");
        }
    }

    private static Map<String, Object> json(byte[] bytes, String where) {
        return json(utf8(bytes, where), where);
    }

    private static Map<String, Object> json(String text, String where) {
        try {
            return Json.object(text);
        } catch (IllegalArgumentException e) {
            throw new VerificationFailure(where + ": " + e.getMessage());
        }
    }

    private static Instant instant(String text, String where) {
        try {
            return Instant.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            throw new VerificationFailure(where + ": " + Json.quote(text) + " is not an ISO-8601 instant");
        }
    }
}
