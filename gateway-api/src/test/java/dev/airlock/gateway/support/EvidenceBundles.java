package dev.airlock.gateway.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.evidence.EvidenceFormat;
import dev.airlock.evidence.Json;
import dev.airlock.evidence.VerifyCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * Evidence bundles in tests: written from an export's answer, verified with the verifier's own
 * command, read entry by entry, and changed and signed again as an insider holding the tenant's
 * key would (the keys are the test resources' {@code evidence/<name>.pem}).
 */
public final class EvidenceBundles {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private EvidenceBundles() {}

    /** The verifier's exit status and report. */
    public record Verdict(int status, String out) {}

    /** The export's answer, which must be a 200, written to {@code file}. */
    public static Path write(Path file, MockHttpServletResponse response) throws IOException {
        assertThat(response.getStatus())
                .as(file.getFileName() + ": " + response.getContentAsString())
                .isEqualTo(200);
        return Files.write(file, response.getContentAsByteArray());
    }

    /** What the verifier's command says of {@code bundle}, with the keys file and anchors given. */
    public static Verdict verify(Path bundle, Path keys, Path... anchors) {
        List<String> args = new ArrayList<>(List.of(bundle.toString(), "--keys", keys.toString()));
        for (Path anchor : anchors) {
            args.add("--anchor");
            args.add(anchor.toString());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = VerifyCommand.run(
                args.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Verdict(status, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
    }

    /** The bundle's entries, by name, in its order. */
    public static Map<String, byte[]> entries(Path bundle) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(bundle.toFile())) {
            for (ZipEntry entry : java.util.Collections.list(zip.entries())) {
                entries.put(entry.getName(), zip.getInputStream(entry).readAllBytes());
            }
        }
        return entries;
    }

    /** The private key of the test resource {@code evidence/<name>.pem}. */
    public static PrivateKey key(String name) throws Exception {
        String pem = Files.readString(Path.of("src/test/resources/evidence/" + name + ".pem"))
                .replaceAll("-----[A-Z ]+-----", "")
                .replaceAll("\\s", "");
        return KeyFactory.getInstance("Ed25519")
                .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
    }

    /**
     * {@code source} changed by {@code change}; with {@code signer} set, the manifest's digests are
     * brought up to date and it is signed again (an insider holding a key), otherwise left as it was.
     */
    public static Path tampered(
            Path source,
            Consumer<Map<String, byte[]>> change,
            @org.jspecify.annotations.Nullable PrivateKey signer,
            String keyId)
            throws Exception {
        Map<String, byte[]> entries = entries(source);
        change.accept(entries);
        if (signer != null) {
            Map<String, Object> manifest = new LinkedHashMap<>(Json.object(text(entries.get(EvidenceFormat.MANIFEST))));
            List<Map<String, Object>> listed = new ArrayList<>();
            for (Object item : (List<?>) manifest.get("entries")) {
                String path = (String) ((Map<?, ?>) item).get("path");
                byte[] bytes = entries.get(path);
                listed.add(Map.of("path", path, "sha256", EvidenceFormat.sha256Hex(bytes), "bytes", bytes.length));
            }
            manifest.put("entries", listed);
            byte[] bytes = JSON.writeValueAsBytes(manifest);
            entries.put(EvidenceFormat.MANIFEST, bytes);
            Signature signature = Signature.getInstance("Ed25519");
            signature.initSign(signer);
            signature.update(bytes);
            entries.put(
                    EvidenceFormat.SIGNATURE,
                    JSON.writeValueAsBytes(Map.of(
                            "keyId",
                            keyId,
                            "algorithm",
                            "Ed25519",
                            "signature",
                            Base64.getEncoder().encodeToString(signature.sign()))));
        }
        Path out = Files.createTempFile("tampered", ".zip");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
            for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(entry.getKey()));
                zip.write(entry.getValue());
                zip.closeEntry();
            }
        }
        return out;
    }

    /** Entry {@code path}'s first {@code from}, which it must hold, replaced by {@code to}. */
    public static void replace(Map<String, byte[]> entries, String path, String from, String to) {
        String before = text(entries.get(path));
        assertThat(before).as(path).contains(from);
        entries.put(
                path,
                before.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to))
                        .getBytes(StandardCharsets.UTF_8));
    }

    /** {@code bytes} as UTF-8 text. */
    public static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A run's bundle and its tenant's keys file, as an auditor exported them. */
    public record Exported(String runId, Path bundle, Path keys) {}

    /** Run {@code runId}'s bundle and its tenant's keys, exported by {@code auditor}, into a new directory. */
    public static Exported export(AgentApi api, String auditor, String tenant, String runId) throws IOException {
        Path dir = Files.createTempDirectory(tenant + "-evidence");
        return new Exported(
                runId,
                write(
                        dir.resolve("bundle.zip"),
                        api.rawAsHuman(auditor, "POST", "/api/v1/audit/evidence?tenant=" + tenant + "&runId=" + runId)),
                write(
                        dir.resolve("keys.json"),
                        api.rawAsHuman(auditor, "GET", "/api/v1/audit/evidence/keys?tenant=" + tenant)));
    }

    /**
     * The verdict on {@code exported}'s bundle with its envelope's {@code from} made {@code to} and
     * signed again with the tenant's key {@code keyName}: a run's row changed before the export.
     */
    public static Verdict verifyWithEnvelopeRewritten(Exported exported, String from, String to, String keyName)
            throws Exception {
        String envelope = EvidenceFormat.runFolder(exported.runId()) + "envelope.json";
        return verify(
                tampered(exported.bundle(), e -> replace(e, envelope, from, to), key(keyName), keyName),
                exported.keys());
    }
}
