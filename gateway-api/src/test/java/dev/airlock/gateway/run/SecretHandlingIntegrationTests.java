package dev.airlock.gateway.run;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.TestSecrets;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;

/**
 * Injected secrets stay out of everything Airlock keeps and says: the raw artifact (as read
 * through a grant), a value cut off by the end of a stream, error messages and the log.
 */
@AirlockIntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class SecretHandlingIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @Test
    void theRawArtifactKeepsWhatTheToolPrintedButNotTheSecretAirlockInjected(CapturedOutput output) throws Exception {
        AgentApi api = new AgentApi(mvc);
        JsonNode run = api.run(ACME, "secret", "{}").body();
        String runId = run.path("runId").asString();
        // The stream's digest is of what the process wrote with the secret replaced: a digest of the
        // value as written would let the agent test guesses of it offline.
        assertThat(run.path("stdout").path("sha256").asString())
                .isEqualTo(dev.airlock.kernel.digest.Sha256.hex("token=[REDACTED:API_TOKEN]\n"))
                .isNotEqualTo(dev.airlock.kernel.digest.Sha256.hex("token=" + TestSecrets.API_TOKEN + "\n"));

        String grant = api.grantedRawAccess("bob", "erin", runId, "acme", "secret check");
        String auditView = api.asHuman("bob", "GET", "/api/v1/audit/raw-grants/" + grant + "/audit-view", null)
                .body()
                .toString();
        assertThat(auditView).contains("token=[REDACTED:API_TOKEN]\\\\x0a").doesNotContain(TestSecrets.API_TOKEN);
        String hex = api.asHuman("bob", "GET", "/api/v1/audit/raw-grants/" + grant + "/hexdump", null)
                .body()
                .toString();
        assertThat(hex).doesNotContain(TestSecrets.API_TOKEN).doesNotContain("74 6f 6b 2d 33 66");
        byte[] download = api.rawAsHuman("bob", "/api/v1/audit/raw-grants/" + grant + "/download")
                .getContentAsByteArray();
        assertThat(new String(download, StandardCharsets.UTF_8)).isEqualTo("token=[REDACTED:API_TOKEN]\n");
        JsonNode report = api.asHuman("bob", "GET", "/api/v1/audit/runs/" + runId + "?tenant=acme", null)
                .body();
        assertThat(report.path("observations")
                        .path("rawArtifact")
                        .path("redactions")
                        .asLong())
                .isEqualTo(1);
        assertThat(report.path("observations")
                        .path("rawArtifact")
                        .path("sha256")
                        .asString())
                .isEqualTo(dev.airlock.persistence.artifact.RawArtifactDigest.of(download, new byte[0]));
        // An evidence bundle holding those bytes verifies offline: the stream hashes to its digest.
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("secret-evidence");
        java.nio.file.Path bundle = dir.resolve("bundle.zip");
        java.nio.file.Files.write(
                bundle,
                api.rawAsHuman("bob", "POST", "/api/v1/audit/evidence?tenant=acme&runId=" + runId)
                        .getContentAsByteArray());
        java.nio.file.Path keys = dir.resolve("keys.json");
        java.nio.file.Files.write(
                keys,
                api.rawAsHuman("bob", "GET", "/api/v1/audit/evidence/keys?tenant=acme")
                        .getContentAsByteArray());
        java.io.ByteArrayOutputStream verdict = new java.io.ByteArrayOutputStream();
        int status = dev.airlock.evidence.VerifyCommand.run(
                new String[] {bundle.toString(), "--keys", keys.toString()},
                new java.io.PrintStream(verdict, true, StandardCharsets.UTF_8),
                new java.io.PrintStream(verdict, true, StandardCharsets.UTF_8));
        assertThat(status).as(verdict.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(verdict.toString(StandardCharsets.UTF_8)).contains("1 raw artifact(s)");
        assertThat(output.getAll()).doesNotContain(TestSecrets.API_TOKEN);
    }

    @Test
    void aSecretTheSanitizerWouldRewriteNeverReachesTheTranscript(CapturedOutput output) throws Exception {
        // A PEM key saved with Windows line ends and a token saved with a byte order mark: the
        // sanitizer writes CR LF as LF and drops the mark, so the values as injected are not in
        // the sanitized text; their rewritten forms must not be either.
        java.nio.file.Path secrets = java.nio.file.Path.of(System.getProperty("user.dir"), "target", "test-secrets");
        java.nio.file.Files.createDirectories(secrets);
        java.nio.file.Files.writeString(
                secrets.resolve("crlf-key"), "-----BEGIN KEY-----\r\nMIIsecretKeyLine42\r\n-----END KEY-----\r\n");
        java.nio.file.Files.writeString(secrets.resolve("bom-token"), "\uFEFFbom-token-9d8c7b6a");
        JsonNode run = new AgentApi(mvc).run(ACME, "rewritten-secrets", "{}").body();
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        String text = run.path("stdout").path("text").asString();
        assertThat(text)
                .isEqualTo("key=[REDACTED:CRLF_KEY]\nbom=[REDACTED:BOM_TOKEN]\n")
                .doesNotContain("MIIsecretKeyLine42")
                .doesNotContain("bom-token-9d8c7b6a");
        assertThat(run.path("stdout").path("fenced").asString()).doesNotContain("MIIsecretKeyLine42");
        assertThat(run.path("stdout").path("redactions").asLong()).isEqualTo(2);
        assertThat(output.getAll()).doesNotContain("MIIsecretKeyLine42").doesNotContain("bom-token-9d8c7b6a");
    }

    @Test
    void aSecretPrintedInBase64IsRedactedToo() {
        JsonNode run = new AgentApi(mvc).run(ACME, "secret-encoded", "{}").body();
        assertThat(run.path("stdout").path("text").asString()).isEqualTo("[REDACTED:API_TOKEN_BASE64]\n");
        assertThat(run.toString())
                .doesNotContain(java.util.Base64.getEncoder()
                        .encodeToString(TestSecrets.API_TOKEN.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aSecretCutOffByTheEndOfAStreamIsRedactedInTranscriptAndRawArtifact(CapturedOutput output) {
        AgentApi api = new AgentApi(mvc);
        JsonNode run = api.run(ACME, "secret-cut", "{}").body();
        assertThat(run.path("stdout").path("text").asString()).isEqualTo("token=[REDACTED:API_TOKEN]");
        assertThat(run.path("stderr").path("text").asString()).isEqualTo("err=[REDACTED:API_TOKEN]");
        assertThat(run.path("stdout").path("redactions").asLong()).isEqualTo(1);
        String almost = TestSecrets.API_TOKEN.substring(0, TestSecrets.API_TOKEN.length() - 2);
        assertThat(run.toString()).doesNotContain(almost);
        String runId = run.path("runId").asString();
        JsonNode report = api.asHuman("bob", "GET", "/api/v1/audit/runs/" + runId + "?tenant=acme", null)
                .body();
        assertThat(report.path("observations")
                        .path("rawArtifact")
                        .path("redactions")
                        .asLong())
                .isEqualTo(2);
        assertThat(report.toString()).doesNotContain(almost);
        assertThat(output.getAll()).doesNotContain(almost);
    }

    private void failSignIn(String user, String password, String address) {
        mvc.post()
                .uri("/login")
                .param("username", user)
                .param("password", password)
                .with(org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf())
                .with(request -> {
                    request.setRemoteAddr(address);
                    return request;
                })
                .exchange();
    }

    @Test
    void keysTokensAndPasswordsNeverReachTheLogOrAnError(CapturedOutput output) {
        AgentApi api = new AgentApi(mvc);
        String wrongKey = "not-a-key-0c8f1d2e";
        AgentApi.Response refused = api.get(wrongKey, "/api/v1/tools");
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.body().toString()).doesNotContain(wrongKey);
        AgentApi.Response badToken =
                api.get("alp_made-up-token-77", "/api/v1/runs/00000000-0000-0000-0000-000000000000");
        assertThat(badToken.body().toString()).doesNotContain("made-up-token-77");
        failSignIn("alice", "wrong-password-5bd1", "10.44.0.1");
        failSignIn("alice-password-typed-as-name", "x", "10.44.0.2");
        JsonNode run = api.run(ACME, "secret", "{}").body();
        assertThat(run.toString()).doesNotContain(TestSecrets.API_TOKEN);
        assertThat(output.getAll())
                .doesNotContain(wrongKey)
                .doesNotContain("made-up-token-77")
                .doesNotContain("wrong-password-5bd1")
                .doesNotContain(ACME)
                .doesNotContain("alice-password")
                .doesNotContain(TestSecrets.API_TOKEN);
    }
}
