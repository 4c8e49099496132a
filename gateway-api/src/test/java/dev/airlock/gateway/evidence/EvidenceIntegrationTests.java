package dev.airlock.gateway.evidence;

import static dev.airlock.gateway.support.AgentApi.EVIDENCE;
import static dev.airlock.gateway.support.EvidenceBundles.entries;
import static dev.airlock.gateway.support.EvidenceBundles.key;
import static dev.airlock.gateway.support.EvidenceBundles.replace;
import static dev.airlock.gateway.support.EvidenceBundles.text;
import static dev.airlock.gateway.support.EvidenceBundles.verify;
import static dev.airlock.gateway.support.EvidenceBundles.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.evidence.EvidenceFormat;
import dev.airlock.evidence.Json;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.EvidenceBundles;
import dev.airlock.gateway.support.EvidenceBundles.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Evidence bundles end to end: runs of the {@code evidence} tenant (one automatic, one approved by
 * a person, whose raw bytes the auditor holds a grant for) exported through the API, checked by
 * the offline verifier (the same class its jar runs), and each kind of tampering caught by it,
 * each naming what failed. Tampering an insider with the tenant's key could do (the bundle
 * re-signed after the change) is caught by the checks behind the signature.
 */
@AirlockIntegrationTest
class EvidenceIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Made once for the class: the runs, an anchor kept before the export, the bundles and keys. */
    private record Fixture(
            String approvedRun,
            String autoRun,
            Path bundle,
            Path range,
            Path keys,
            Path otherKeys,
            Path anchor,
            long anchorSeq) {}

    private static Fixture fixture;

    @Autowired
    MockMvcTester mvc;

    @Autowired
    dev.airlock.gateway.support.MovableClock clock;

    private AgentApi api() {
        return new AgentApi(mvc);
    }

    @BeforeEach
    void export() throws Exception {
        if (fixture != null) {
            return;
        }
        AgentApi api = api();
        AgentApi.Response auto = api.run(EVIDENCE, "echo", "{\"message\":\"hello evidence\"}");
        assertThat(auto.text("state")).isEqualTo("COMPLETED");
        String approved = api.park(EVIDENCE, "gated", "{\"message\":\"ship it\"}");
        String digest = api.digest("ian", approved);
        assertThat(api.asHuman(
                                "ian",
                                "POST",
                                "/api/v1/approvals/" + approved + "/decisions",
                                "{\"decision\":\"APPROVE\",\"reason\":\"release window\",\"digest\":\"" + digest
                                        + "\"}")
                        .status())
                .isEqualTo(200);
        assertThat(api.get(EVIDENCE, "/api/v1/runs/" + approved + "?wait=PT20S").text("state"))
                .isEqualTo("COMPLETED");
        AgentApi.Response grant = api.asHuman(
                "ivy",
                "POST",
                "/api/v1/audit/runs/" + approved + "/raw-grants?tenant=evidence",
                "{\"reason\":\"evidence for the audit\"}");
        assertThat(grant.text("status")).isEqualTo("GRANTED");

        Path dir = Files.createTempDirectory("evidence");
        Path anchor = write(
                dir.resolve("anchor.json"),
                api.rawAsHuman("ivy", "GET", "/api/v1/audit/evidence/anchor?tenant=evidence"));
        long anchorSeq = Json.object(Files.readString(anchor)).get("seq") instanceof java.math.BigDecimal n
                ? n.longValueExact()
                : -1;
        // More events after the anchor, so that a bundle cut before it can be shown to be cut.
        api.run(EVIDENCE, "echo", "{\"message\":\"after the anchor\"}");
        Path bundle = write(
                dir.resolve("bundle.zip"),
                api.rawAsHuman("ivy", "POST", "/api/v1/audit/evidence?tenant=evidence&runId=" + approved));
        // A range must have ended a while before it is exported (EvidenceFormat.SETTLE): the range
        // ends now, and is exported as if two minutes later.
        Instant now = clock.instant();
        String rangePath = "/api/v1/audit/evidence?tenant=evidence&from=" + now.minusSeconds(3600) + "&to=" + now;
        MockHttpServletResponse early = api.rawAsHuman("ivy", "POST", rangePath);
        assertThat(early.getStatus()).as("a range that ended just now").isEqualTo(400);
        assertThat(early.getContentAsString()).contains("Field 'to' must be at least 60 s in the past");
        Path range;
        clock.advance(EvidenceFormat.SETTLE.plusMinutes(1));
        try {
            range = write(dir.resolve("range.zip"), api.rawAsHuman("ivy", "POST", rangePath));
        } finally {
            clock.reset();
        }
        Path keys = write(
                dir.resolve("keys.json"), api.rawAsHuman("ivy", "GET", "/api/v1/audit/evidence/keys?tenant=evidence"));
        Path otherKeys = write(
                dir.resolve("acme-keys.json"),
                api.rawAsHuman("frank", "GET", "/api/v1/audit/evidence/keys?tenant=acme"));
        fixture = new Fixture(approved, auto.text("runId"), bundle, range, keys, otherKeys, anchor, anchorSeq);
    }

    /**
     * The bundle changed by {@code change}; with {@code signer} set, the manifest's digests are
     * brought up to date and it is signed again (an insider holding a key), otherwise left as it was.
     */
    private static Path tampered(Consumer<Map<String, byte[]>> change, PrivateKey signer, String keyId)
            throws Exception {
        return EvidenceBundles.tampered(fixture.bundle(), change, signer, keyId);
    }

    private static Path insider(Consumer<Map<String, byte[]>> change) throws Exception {
        return tampered(change, key("ev-2026"), "ev-2026");
    }

    /** The manifest changed by {@code change}. */
    private static void manifest(Map<String, byte[]> entries, Consumer<Map<String, Object>> change) {
        Map<String, Object> manifest = new LinkedHashMap<>(Json.object(text(entries.get(EvidenceFormat.MANIFEST))));
        change.accept(manifest);
        entries.put(EvidenceFormat.MANIFEST, JSON.writeValueAsBytes(manifest));
    }

    private static Verdict failsWith(Path bundle, String message) {
        Verdict verdict = verify(bundle, fixture.keys());
        assertThat(verdict.status()).as(verdict.out()).isEqualTo(1);
        assertThat(verdict.out()).contains(message);
        return verdict;
    }

    private static String run(String name) {
        return EvidenceFormat.runFolder(fixture.approvedRun()) + name;
    }

    @Test
    void aBundleVerifiesOfflineWithEverythingItHolds() throws Exception {
        Verdict verdict = verify(fixture.bundle(), fixture.keys());
        assertThat(verdict.status()).as(verdict.out()).isZero();
        assertThat(verdict.out())
                .contains("signature: valid, Ed25519 key ev-2026 of tenant evidence")
                .contains("runs: 1 checked")
                .contains("1 raw artifact(s)")
                .contains("VERIFIED");
        Map<String, byte[]> entries = entries(fixture.bundle());
        assertThat(entries)
                .containsKeys(
                        run("envelope.json"),
                        run("approval.json"),
                        run("request.json"),
                        run("stdout.txt"),
                        run("raw-stdout.bin"),
                        run("raw-stderr.bin"),
                        EvidenceFormat.EVENTS);
        assertThat(text(entries.get(run("raw-stdout.bin")))).isEqualTo("ship it\n");
        assertThat(text(entries.get(run("approval.json"))))
                .contains("policy-rule")
                .contains("\"approver\":\"ian\"");
        Map<String, Object> manifest = Json.object(text(entries.get(EvidenceFormat.MANIFEST)));
        assertThat(manifest.get("tenant")).isEqualTo("evidence");
        assertThat(manifest.get("exportedBy")).isEqualTo("ivy");
        assertThat(manifest.get("keyId")).isEqualTo("ev-2026");
        assertThat(text(entries.get(EvidenceFormat.MANIFEST))).contains("\"raw\":\"included\"");
        String digest =
                (String) Json.object(text(entries.get(run("approval.json")))).get("digest");
        assertThat(text(entries.get(EvidenceFormat.EVENTS)))
                .as("the process that started records the approved action it was checked against")
                .contains("\\\"action\\\":\\\"" + digest + "\\\"");
        assertThat(verdict.out()).doesNotContain("only the approval is checked");

        JsonNode events = api().asHuman(
                        "ivy", "GET", "/api/v1/audit/runs/" + fixture.approvedRun() + "/events?tenant=evidence", null)
                .body();
        assertThat(events.valueStream().map(e -> e.path("type").asString()).toList())
                .as("the export is an audit event of the run")
                .contains("evidence.exported", "raw.grant.used");
    }

    @Test
    void aBundleIsReadOnceSoThatOneReplacedWhileItIsVerifiedCannotMixTwoVersions() throws Exception {
        // A named pipe can be read once: the verifier reads the bundle once, into a copy of its own,
        // and checks that copy (it used to open the file four times).
        Path fifo = Files.createTempDirectory("evidence-fifo").resolve("bundle.zip");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor())
                .isZero();
        Thread writer = Thread.ofPlatform().daemon().start(() -> {
            try (java.io.OutputStream out = Files.newOutputStream(fifo)) {
                Files.copy(fixture.bundle(), out);
            } catch (IOException closedByTheReader) {
                // the verifier stopped reading
            }
        });
        Verdict verdict = verify(fifo, fixture.keys());
        writer.join(java.time.Duration.ofSeconds(10));
        assertThat(verdict.status()).as(verdict.out()).isZero();
        assertThat(verdict.out()).contains("VERIFIED");
    }

    @Test
    void aRangeBundleHoldsRawBytesOnlyWhereTheExporterHoldsAGrant() throws Exception {
        Verdict verdict = verify(fixture.range(), fixture.keys(), fixture.anchor());
        assertThat(verdict.status()).as(verdict.out()).isZero();
        Map<String, byte[]> entries = entries(fixture.range());
        String autoRun = EvidenceFormat.runFolder(fixture.autoRun());
        assertThat(entries).containsKey(autoRun + "envelope.json").doesNotContainKey(autoRun + "raw-stdout.bin");
        String manifest = text(entries.get(EvidenceFormat.MANIFEST));
        assertThat(manifest)
                .contains("\"runId\":\"" + fixture.autoRun() + "\",\"rawArtifact\":\"restricted:sha256:")
                .contains("\"raw\":\"withheld\"")
                .contains("\"raw\":\"included\"");
        assertThat(verdict.out()).contains("matches the chain");
    }

    @Autowired
    dev.airlock.persistence.audit.AuditLog auditLog;

    @Autowired
    org.springframework.transaction.PlatformTransactionManager transactions;

    @Test
    void aRangeBundleVerifiesWhenAnEventFromBeforeTheRangeIsAppendedAfterARunInIt() throws Exception {
        AgentApi api = api();
        Instant from = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        AgentApi.Response inRange = api.run(EVIDENCE, "echo", "{\"message\":\"within the range\"}");
        assertThat(inRange.text("state")).isEqualTo("COMPLETED");
        // Event times do not follow the chain: a run's run.started is appended with its end, so a
        // run that began before the range and ended within it appends an event from before the
        // range after the runs requested in it.
        dev.airlock.persistence.scope.DatabaseScope.of(
                        dev.airlock.persistence.scope.DatabaseRole.GATEWAY, List.of("evidence"))
                .run(() -> new org.springframework.transaction.support.TransactionTemplate(transactions)
                        .executeWithoutResult(status -> auditLog.append(
                                "evidence",
                                dev.airlock.persistence.audit.AuditEventType.CONFIG_CHANGED,
                                null,
                                "airlock",
                                Map.of("appended", "late"),
                                from.minusSeconds(1))));
        Instant to = clock.instant().plusSeconds(1).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Path range = Files.createTempFile("evidence-late", ".zip");
        clock.advance(EvidenceFormat.SETTLE.plusMinutes(2));
        try {
            write(
                    range,
                    api.rawAsHuman("ivy", "POST", "/api/v1/audit/evidence?tenant=evidence&from=" + from + "&to=" + to));
        } finally {
            clock.reset();
        }
        Verdict verdict = verify(range, fixture.keys());
        assertThat(verdict.status()).as(verdict.out()).isZero();
        assertThat(text(entries(range).get(EvidenceFormat.MANIFEST))).contains(inRange.text("runId"));
    }

    @Test
    void aChangedByteWithoutANewSignatureFailsTheManifest() throws Exception {
        Verdict verdict =
                verify(tampered(e -> replace(e, run("stdout.txt"), "ship it", "ship It"), null, null), fixture.keys());
        assertThat(verdict.status()).isEqualTo(1);
        assertThat(verdict.out())
                .contains("FAILED: entry " + run("stdout.txt") + ": its bytes do not match the manifest");
    }

    @Test
    void aChangedTranscriptIsCaught() throws Exception {
        Verdict verdict = verify(insider(e -> replace(e, run("stdout.txt"), "ship it", "ship It")), fixture.keys());
        assertThat(verdict.status()).isEqualTo(1);
        assertThat(verdict.out())
                .contains(
                        "FAILED: run " + fixture.approvedRun() + ": the stdout transcript is not the envelope's text");
    }

    @Test
    void aChangedRawArtifactIsCaught() throws Exception {
        Verdict verdict = verify(
                insider(e -> e.put(run("raw-stdout.bin"), "ship It\n".getBytes(StandardCharsets.UTF_8))),
                fixture.keys());
        assertThat(verdict.status()).isEqualTo(1);
        assertThat(verdict.out()).contains("the raw stdout does not hash to the envelope's sha256");
    }

    @Test
    void aChangedDecisionIsCaught() throws Exception {
        Verdict verdict = verify(
                insider(e -> replace(e, run("approval.json"), "\"approver\":\"ian\"", "\"approver\":\"ivy\"")),
                fixture.keys());
        assertThat(verdict.status()).isEqualTo(1);
        assertThat(verdict.out()).contains("the decision APPROVE by ivy has no approval.decided event");

        Verdict action = verify(insider(e -> replace(e, run("approval.json"), "ship it", "rm -rf /")), fixture.keys());
        assertThat(action.status()).isEqualTo(1);
        assertThat(action.out()).contains("the approved action does not hash to its digest");
    }

    @Test
    void aChangedEnvelopeFactIsCaught() throws Exception {
        Verdict verdict = verify(
                insider(e -> replace(e, run("envelope.json"), "\"exitCode\":0", "\"exitCode\":1")), fixture.keys());
        assertThat(verdict.status()).isEqualTo(1);
        assertThat(verdict.out())
                .contains("the envelope's process exitCode is not the one its run.finished event recorded");
        // A run's row changed before the export (the agent side may write its end): the chain says otherwise.
        Verdict termination = verify(
                insider(e ->
                        replace(e, run("envelope.json"), "\"termination\":\"EXITED\"", "\"termination\":\"TIMEOUT\"")),
                fixture.keys());
        assertThat(termination.status()).isEqualTo(1);
        assertThat(termination.out())
                .contains("the envelope's process termination is not the one its run.finished event recorded");
        Verdict hidden =
                verify(insider(e -> replace(e, run("envelope.json"), "\"process\":{", "\"hidden\":{")), fixture.keys());
        assertThat(hidden.status()).isEqualTo(1);
        assertThat(hidden.out()).contains("the envelope has no process facts but its run.finished event recorded them");
        Verdict state = verify(
                insider(e -> replace(e, run("envelope.json"), "\"state\":\"COMPLETED\"", "\"state\":\"FAILED\"")),
                fixture.keys());
        assertThat(state.status()).isEqualTo(1);
        assertThat(state.out()).contains("the envelope's state is not the one its run.finished event recorded");
    }

    @Test
    void aRunThatNeverRanCannotBeShownAsCompleted() throws Exception {
        // Cancelled before it started: no run.finished in the chain, so its envelope may not say it ended.
        AgentApi api = api();
        String never = api.park(EVIDENCE, "gated", "{\"message\":\"called off\"}");
        assertThat(api.post(EVIDENCE, "/api/v1/runs/" + never + "/cancel", "").status())
                .isIn(200, 202);
        Path bundle = write(
                Files.createTempDirectory("evidence-never").resolve("never.zip"),
                api.rawAsHuman("ivy", "POST", "/api/v1/audit/evidence?tenant=evidence&runId=" + never));
        Verdict genuine = verify(bundle, fixture.keys());
        assertThat(genuine.status()).as(genuine.out()).isZero();
        String envelope = EvidenceFormat.runFolder(never) + "envelope.json";
        Verdict rewritten = verify(
                EvidenceBundles.tampered(
                        bundle,
                        e -> replace(e, envelope, "\"state\":\"CANCELLED\"", "\"state\":\"COMPLETED\""),
                        key("ev-2026"),
                        "ev-2026"),
                fixture.keys());
        assertThat(rewritten.status()).as(rewritten.out()).isEqualTo(1);
        assertThat(rewritten.out()).contains("the envelope says COMPLETED but the chain has no run.finished event");
    }

    @Test
    void aRemovedEventIsCaught() throws Exception {
        Verdict verdict = verify(
                insider(e -> {
                    List<String> lines = new ArrayList<>(
                            text(e.get(EvidenceFormat.EVENTS)).lines().toList());
                    lines.remove(1);
                    e.put(EvidenceFormat.EVENTS, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
                }),
                fixture.keys());
        assertThat(verdict.status()).isEqualTo(1);
        assertThat(verdict.out()).containsPattern("FAILED: audit chain: event \\d+ is missing");
    }

    @Test
    void reorderedEventsAreCaught() throws Exception {
        Verdict verdict = verify(
                insider(e -> {
                    List<String> lines = new ArrayList<>(
                            text(e.get(EvidenceFormat.EVENTS)).lines().toList());
                    java.util.Collections.swap(lines, 1, 2);
                    e.put(EvidenceFormat.EVENTS, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
                }),
                fixture.keys());
        assertThat(verdict.status()).isEqualTo(1);
        assertThat(verdict.out()).containsPattern("FAILED: audit chain: event \\d+ is missing \\(found \\d+\\)");
    }

    @Test
    void aBundleReSignedWithAnotherKeyIsCaught() throws Exception {
        PrivateKey stranger =
                KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate();
        Verdict verdict = verify(tampered(e -> {}, stranger, "ev-2026"), fixture.keys());
        assertThat(verdict.status()).isEqualTo(1);
        assertThat(verdict.out())
                .contains("FAILED: signature: the manifest's signature does not verify with key ev-2026");
    }

    @Test
    void aBundleSignedWithAnotherTenantsKeyIsCaught() throws Exception {
        Verdict signedByAcme = verify(tampered(e -> {}, key("acme-1"), "acme-1"), fixture.keys());
        assertThat(signedByAcme.status()).isEqualTo(1);
        assertThat(signedByAcme.out()).contains("FAILED: signature: key acme-1 is not a key of tenant evidence");

        Verdict acmeKeys = verify(fixture.bundle(), fixture.otherKeys());
        assertThat(acmeKeys.status()).isEqualTo(1);
        // Signed by the evidence tenant's own key, but saying it is acme's: the keys' tenant decides.
        Verdict claimsAcme = verify(
                tampered(e -> manifest(e, m -> m.put("tenant", "acme")), key("ev-2026"), "ev-2026"), fixture.keys());
        assertThat(claimsAcme.status()).isEqualTo(1);
        assertThat(claimsAcme.out()).contains("the bundle is of tenant acme, the keys are of tenant evidence");
        // Its key is not one of acme's: refused by the signature, before the manifest is read.
        assertThat(acmeKeys.out())
                .contains("FAILED: signature: key ev-2026 is not a key of tenant acme (known: acme-1); a bundle of"
                        + " another tenant needs that tenant's keys");
    }

    @Test
    void aChainCutBeforeAKeptAnchorIsCaught() throws Exception {
        Verdict intact = verify(fixture.bundle(), fixture.keys(), fixture.anchor());
        assertThat(intact.status()).as(intact.out()).isZero();
        assertThat(intact.out())
                .contains("anchor of event " + fixture.anchorSeq())
                .contains("matches the chain");

        Path cut = insider(e -> {
            List<String> kept = new ArrayList<>();
            String head = null;
            long last = 0;
            for (String line : text(e.get(EvidenceFormat.EVENTS)).lines().toList()) {
                Map<String, Object> event = Json.object(line);
                long seq = ((java.math.BigDecimal) event.get("seq")).longValueExact();
                if (seq < fixture.anchorSeq()) {
                    kept.add(line);
                    head = (String) event.get("hash");
                    last = seq;
                }
            }
            e.put(EvidenceFormat.EVENTS, (String.join("\n", kept) + "\n").getBytes(StandardCharsets.UTF_8));
            Map<String, Object> manifest = new LinkedHashMap<>(Json.object(text(e.get(EvidenceFormat.MANIFEST))));
            Map<String, Object> chain = new LinkedHashMap<>((Map<String, Object>) manifest.get("chain"));
            chain.put("lastSeq", last);
            chain.put("head", head);
            manifest.put("chain", chain);
            e.put(EvidenceFormat.MANIFEST, JSON.writeValueAsBytes(manifest));
        });
        assertThat(verify(cut, fixture.keys()).status())
                .as("without the anchor the cut chain is consistent")
                .isZero();
        Verdict verdict = verify(cut, fixture.keys(), fixture.anchor());
        assertThat(verdict.status()).isEqualTo(1);
        assertThat(verdict.out()).contains("before the anchored event: events were removed");
    }

    @Test
    void oldKeysStayListedAndOnlyTheSigningKeySigns() {
        JsonNode keys = api().asHuman("ivy", "GET", "/api/v1/audit/evidence/keys?tenant=evidence", null)
                .body();
        assertThat(keys.path("keys")
                        .valueStream()
                        .map(k -> k.path("keyId").asString() + "="
                                + k.path("signing").asBoolean())
                        .toList())
                .containsExactly("ev-2025=false", "ev-2026=true");
    }

    @Test
    void onlyTheTenantsAuditorsExport() {
        AgentApi api = api();
        String path = "/api/v1/audit/evidence?tenant=evidence&runId=" + fixture.approvedRun();
        assertThat(api.rawAsHuman("ian", "POST", path).getStatus())
                .as("an approver")
                .isEqualTo(403);
        assertThat(api.rawAsHuman("erin", "POST", path).getStatus())
                .as("another tenant's auditor")
                .isEqualTo(403);
        assertThat(api.rawAsHuman("erin", "GET", "/api/v1/audit/evidence/keys?tenant=evidence")
                        .getStatus())
                .isEqualTo(403);
        assertThat(api.post(EVIDENCE, path, "").status()).as("an agent").isIn(401, 403);
        MockHttpServletResponse unsigned =
                api.rawAsHuman("dave", "POST", "/api/v1/audit/evidence?tenant=globex&runId=" + fixture.approvedRun());
        assertThat(unsigned.getStatus())
                .as("a tenant without a signing key exports nothing")
                .isEqualTo(409);
        MockHttpServletResponse other = api.rawAsHuman(
                "ivy",
                "POST",
                "/api/v1/audit/evidence?tenant=evidence&runId="
                        + fixture.autoRun().replace('0', '1'));
        assertThat(other.getStatus()).isIn(400, 404);
        MockHttpServletResponse bad =
                api.rawAsHuman("ivy", "POST", "/api/v1/audit/evidence?tenant=evidence&from=yesterday&to=now");
        assertThat(bad.getStatus()).isEqualTo(400);
        assertThat(bad.getContentType()).startsWith("application/problem+json");
    }

    @Test
    void aTranscriptChangedTogetherWithTheEnvelopeIsCaughtByTheChain() throws Exception {
        failsWith(
                insider(e -> {
                    replace(e, run("stdout.txt"), "ship it", "all fine");
                    replace(e, run("envelope.json"), "\"text\":\"ship it", "\"text\":\"all fine");
                }),
                "the stdout transcript is not the text its run.finished event recorded");
    }

    @Test
    void aChangedRequestIsCaught() throws Exception {
        failsWith(
                insider(e -> replace(e, run("request.json"), "ship it", "ship everything")),
                "its request is not the one its run.requested event recorded");
    }

    @Test
    void aDroppedApprovalIsCaught() throws Exception {
        failsWith(
                insider(e -> {
                    e.remove(run("approval.json"));
                    replace(e, run("envelope.json"), "\"required\":true", "\"required\":false");
                    manifest(
                            e,
                            m -> m.put(
                                    "entries",
                                    ((List<?>) m.get("entries"))
                                            .stream()
                                                    .filter(x -> !((Map<?, ?>) x)
                                                            .get("path")
                                                            .equals(run("approval.json")))
                                                    .toList()));
                }),
                "its approval request is missing");
    }

    @Test
    void anEntryOfNoListedRunIsCaught() throws Exception {
        String stranger = EvidenceFormat.runFolder("01234567-89ab-7def-8123-456789abcdef") + "envelope.json";
        failsWith(
                insider(e -> {
                    e.put(stranger, "{}".getBytes(StandardCharsets.UTF_8));
                    manifest(e, m -> {
                        List<Object> listed = new ArrayList<>((List<?>) m.get("entries"));
                        listed.add(Map.of("path", stranger, "sha256", "0", "bytes", 2));
                        m.put("entries", listed);
                    });
                }),
                "manifest: entry " + stranger + " is no part of a bundle or of a listed run");
    }

    @Test
    void aRunLeftOutOfARangeIsCaught() throws Exception {
        String left = EvidenceFormat.runFolder(fixture.autoRun());
        Path cut = EvidenceBundles.tampered(
                fixture.range(),
                e -> {
                    e.keySet().removeIf(path -> path.startsWith(left));
                    manifest(e, m -> {
                        m.put(
                                "runs",
                                ((List<?>) m.get("runs"))
                                        .stream()
                                                .filter(r -> !((Map<?, ?>) r)
                                                        .get("runId")
                                                        .equals(fixture.autoRun()))
                                                .toList());
                        m.put(
                                "entries",
                                ((List<?>) m.get("entries"))
                                        .stream()
                                                .filter(x -> !((String) ((Map<?, ?>) x).get("path")).startsWith(left))
                                                .toList());
                    });
                },
                key("ev-2026"),
                "ev-2026");
        failsWith(cut, "run " + fixture.autoRun() + ": requested within the bundle's range but not in it");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRangeExportedBeforeItHadLongEndedIsCaught() throws Exception {
        Path early = EvidenceBundles.tampered(
                fixture.range(),
                e -> manifest(e, m -> {
                    Map<String, Object> scope = new LinkedHashMap<>((Map<String, Object>) m.get("scope"));
                    scope.put("to", m.get("exportedAt"));
                    m.put("scope", scope);
                }),
                key("ev-2026"),
                "ev-2026");
        failsWith(early, "scope: the range ends at");
        failsWith(early, "runs requested near its end may not have been recorded yet");
    }

    /**
     * A bundle is of the moment the export read the database: what the export itself recorded while
     * it was written (its use of the raw-access grant) came after it. An anchor taken while a long
     * export was written is then "newer than the bundle", never a sign that events were removed.
     */
    @Test
    void aBundleIsOfTheMomentItsExportReadTheRecord() throws Exception {
        Map<String, Object> manifest =
                Json.object(text(entries(fixture.bundle()).get(EvidenceFormat.MANIFEST)));
        Instant exportedAt = Instant.parse((String) manifest.get("exportedAt"));
        long lastSeq = ((java.math.BigDecimal) ((Map<?, ?>) manifest.get("chain")).get("lastSeq")).longValueExact();
        Map<String, Object> used = text(entries(fixture.range()).get(EvidenceFormat.EVENTS))
                .lines()
                .map(Json::object)
                .filter(e -> "raw.grant.used".equals(e.get("type"))
                        && fixture.approvedRun().equals(e.get("runId"))
                        && ((java.math.BigDecimal) e.get("seq")).longValueExact() > lastSeq)
                .findFirst()
                .orElseThrow();
        assertThat(Instant.parse((String) used.get("occurredAt")))
                .as("the export's own use of its grant, recorded while the bundle was written")
                .isAfter(exportedAt);
    }

    @Test
    void aBackdatedExportCannotDodgeAnAnchor() throws Exception {
        Map<String, Object> anchor = Json.object(Files.readString(fixture.anchor()));
        Instant before = Instant.parse((String) anchor.get("at")).minusSeconds(1);
        Path backdated = insider(e -> manifest(e, m -> m.put("exportedAt", before.toString())));
        Verdict verdict = verify(backdated, fixture.keys(), fixture.anchor());
        assertThat(verdict.status()).isEqualTo(1);
        assertThat(verdict.out()).contains("it occurred after the bundle says it was exported");
    }

    @Test
    void anEntryHiddenFromTheZipDirectoryIsCaught() throws Exception {
        failsWith(smuggled(run("stdout.txt")), "bundle: the zip's directory is not where its end record says");
        failsWith(smuggled("../../evil.sh"), "bundle: the zip's directory is not where its end record says");
    }

    /**
     * What some zip readers honour and the JDK's ignores, each written into the genuine bundle's
     * container without touching an entry's bytes: a reader other than the verifier would have
     * seen other files, or files under other names, than the ones the verifier checked.
     */
    @Test
    void aContainerOtherReadersReadOtherwiseIsCaught() throws Exception {
        byte[] genuine = Files.readAllBytes(fixture.bundle());
        failsWith(
                container(java.util.Arrays.copyOf(genuine, genuine.length + 7)),
                "bundle: the file does not end with the zip's end record");

        // Bytes between the last entry and the directory, with the end record's offset moved past them.
        ByteBuffer end = littleEndian(genuine, genuine.length - 22);
        int directory = end.getInt(16);
        byte[] gap = splice(genuine, directory, new byte[32]);
        littleEndian(gap, gap.length - 22).putInt(16, directory + 32);
        failsWith(container(gap), "bundle: something stands between the last entry and the zip's directory");

        // An Info-ZIP Unicode path (0x7075) naming the first entry otherwise: unzip would extract it so.
        byte[] first = Arrays.copyOfRange(
                genuine,
                directory + 46,
                directory + 46 + littleEndian(genuine, directory).getShort(28));
        CRC32 crc = new CRC32();
        crc.update(first);
        byte[] otherName = "runs/other/approval.json".getBytes(StandardCharsets.UTF_8);
        ByteBuffer field = ByteBuffer.allocate(4 + 5 + otherName.length).order(ByteOrder.LITTLE_ENDIAN);
        field.putShort((short) 0x7075).putShort((short) (5 + otherName.length)).put((byte) 1);
        field.putInt((int) crc.getValue()).put(otherName);
        byte[] renamed = splice(genuine, directory + 46 + first.length, field.array());
        littleEndian(renamed, directory).putShort(30, (short) field.capacity());
        littleEndian(renamed, renamed.length - 22).putInt(12, end.getInt(12) + field.capacity());
        failsWith(container(renamed), "has an extra field (0x7075)");

        // A symbolic link's mode in the first entry's external attributes.
        byte[] link = genuine.clone();
        littleEndian(link, directory).putInt(38, 0xA1FF0000);
        failsWith(container(link), "has file attributes");
    }

    private static Path container(byte[] bytes) throws IOException {
        return Files.write(Files.createTempFile("container", ".zip"), bytes);
    }

    /** {@code bytes} from {@code offset} on, read and written little-endian as zip's numbers are. */
    private static ByteBuffer littleEndian(byte[] bytes, int offset) {
        return ByteBuffer.wrap(bytes, offset, bytes.length - offset).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** {@code bytes} with {@code inserted} put in at {@code at}. */
    private static byte[] splice(byte[] bytes, int at, byte[] inserted) {
        byte[] spliced = new byte[bytes.length + inserted.length];
        System.arraycopy(bytes, 0, spliced, 0, at);
        System.arraycopy(inserted, 0, spliced, at, inserted.length);
        System.arraycopy(bytes, at, spliced, at + inserted.length, bytes.length - at);
        return spliced;
    }

    /**
     * The genuine bundle with a local entry {@code name} put before it: readers of the zip's
     * directory (the JDK's ZipFile among them) do not see it, readers in file order do.
     */
    private static Path smuggled(String name) throws IOException {
        ByteArrayOutputStream hidden = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(hidden)) {
            zip.putNextEntry(new ZipEntry(name));
            zip.write("all fine\n".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        byte[] bytes = hidden.toByteArray();
        int directory = 0;
        while (!(bytes[directory] == 'P'
                && bytes[directory + 1] == 'K'
                && bytes[directory + 2] == 1
                && bytes[directory + 3] == 2)) {
            directory++;
        }
        Path smuggled = Files.createTempFile("smuggled", ".zip");
        Files.write(smuggled, java.util.Arrays.copyOf(bytes, directory));
        Files.write(smuggled, Files.readAllBytes(fixture.bundle()), java.nio.file.StandardOpenOption.APPEND);
        try (ZipFile zip = new ZipFile(smuggled.toFile())) {
            ZipEntry listed = zip.getEntry(name);
            assertThat(listed == null || listed.getSize() != 9)
                    .as("the zip's directory does not show the smuggled entry")
                    .isTrue();
        }
        return smuggled;
    }

    @Test
    void aTenantAdministratorWhoIsNoAuditorCannotExport() {
        assertThat(api().rawAsHuman(
                                "amber",
                                "POST",
                                "/api/v1/audit/evidence?tenant=archive&from=2026-01-01T00:00:00Z"
                                        + "&to=2026-02-01T00:00:00Z")
                        .getStatus())
                .isEqualTo(403);
    }
}
