package dev.airlock.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command's usage and exit statuses; what it checks is tested against real bundles in the gateway's tests. */
class VerifyCommandTests {

    @TempDir
    Path dir;

    private int run(ByteArrayOutputStream out, String... args) {
        return VerifyCommand.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8));
    }

    @Test
    void usageErrorsExitWithTwo() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(run(out)).isEqualTo(2);
        assertThat(run(out, "bundle.zip")).isEqualTo(2);
        assertThat(run(out, "bundle.zip", "--keys")).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: java -jar airlock-evidence-verifier.jar");
    }

    @Test
    void unreadableKeysOrBundlesExitWithTwo() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path keys = Files.writeString(dir.resolve("keys.json"), "{\"tenant\":\"acme\",\"keys\":[]}");
        assertThat(run(out, dir.resolve("missing.zip").toString(), "--keys", keys.toString()))
                .isEqualTo(2);
        Path broken = Files.writeString(dir.resolve("broken.json"), "{");
        assertThat(run(out, "bundle.zip", "--keys", broken.toString())).isEqualTo(2);
    }

    @Test
    void aFileThatIsNoBundleFails() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path keys = Files.writeString(dir.resolve("keys.json"), "{\"tenant\":\"acme\",\"keys\":[]}");
        Path zip = dir.resolve("empty.zip");
        try (var stream = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
            stream.putNextEntry(new java.util.zip.ZipEntry("hello.txt"));
            stream.write(1);
        }
        assertThat(run(out, zip.toString(), "--keys", keys.toString())).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("FAILED: entry manifest.json: missing");
    }

    @Test
    void theSignatureIsCheckedBeforeTheManifestIsParsedOrAnythingElseInflated() throws Exception {
        // A small forged file whose manifest inflates to millions of objects (parsed, it would take
        // gigabytes of heap) and whose other entry declares a large body: refused by its signature
        // alone, before either is read past the two bounded entries.
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path keys = Files.writeString(dir.resolve("keys.json"), "{\"tenant\":\"acme\",\"keys\":[]}");
        Path zip = dir.resolve("forged.zip");
        try (var stream = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
            stream.putNextEntry(new java.util.zip.ZipEntry(EvidenceFormat.MANIFEST));
            stream.write("{\"format\":\"forged\",\"pad\":[".getBytes(StandardCharsets.UTF_8));
            byte[] objects = "{},".repeat(1 << 20).getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 8; i++) {
                stream.write(objects);
            }
            stream.write("{}]}".getBytes(StandardCharsets.UTF_8));
            stream.putNextEntry(new java.util.zip.ZipEntry(EvidenceFormat.SIGNATURE));
            stream.write("{\"algorithm\":\"Ed25519\",\"keyId\":\"forger\",\"signature\":\"AAAA\"}"
                    .getBytes(StandardCharsets.UTF_8));
            stream.putNextEntry(new java.util.zip.ZipEntry("audit/events.jsonl"));
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 64; i++) {
                stream.write(zeros);
            }
        }
        assertThat(run(out, zip.toString(), "--keys", keys.toString())).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("FAILED: signature: key forger is not a key of tenant acme");
    }

    @Test
    void theChainHashIsTheDocumentedOne() {
        // SHA-256 of "prev\ntenant\n7\nrun.requested\n\nairlock\n{}\n2026-12-01T00:00:00Z"
        String expected = EvidenceFormat.sha256Hex(String.join(
                        "\n",
                        EvidenceFormat.GENESIS,
                        "acme",
                        "7",
                        "run.requested",
                        "",
                        "airlock",
                        "{}",
                        "2026-12-01T00:00:00Z")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(EvidenceFormat.chainHash(
                        EvidenceFormat.GENESIS,
                        "acme",
                        7,
                        "run.requested",
                        "",
                        "airlock",
                        "{}",
                        "2026-12-01T00:00:00Z"))
                .isEqualTo(expected)
                .hasSize(64);
        assertThat(EvidenceFormat.rawArtifactDigest(new byte[0], new byte[0]))
                .isEqualTo(EvidenceFormat.sha256Hex(
                        "airlock-raw-artifact-v1\nstdout 0\nstderr 0\n".getBytes(StandardCharsets.US_ASCII)));
    }
}
