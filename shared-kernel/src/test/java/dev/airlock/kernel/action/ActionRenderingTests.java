package dev.airlock.kernel.action;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The canonical text approvers authorize, exactly, and a digest that follows every part of it. */
class ActionRenderingTests {

    private static final Action.Sandbox SANDBOX = new Action.Sandbox(
            "bubblewrap", false, List.of("/srv/in"), List.of("/srv/out"), 256, 1L << 30, 1L << 30, 1024, 256L << 20);
    private static final Action DEPLOY = new Action(
            "acme",
            "deploy",
            List.of("deploy", "--service", "ledger"),
            "/srv/work",
            Map.of("MODE", "safe"),
            List.of("TOKEN"),
            "PT30S",
            SANDBOX);

    @Test
    void rendersEveryPartOnItsOwnLine() throws Exception {
        String expected = """
                tenant: acme
                tool: deploy
                argv[0]: deploy
                argv[1]: --service
                argv[2]: ledger
                working-dir: /srv/work
                env MODE: safe
                secret TOKEN: (injected from the gateway, value hidden)
                timeout: PT30S
                sandbox: bubblewrap
                sandbox network: none (a loopback of its own)
                sandbox read-only: /srv/in
                sandbox writable: /srv/out
                sandbox limits: processes 256, memory 1073741824 B, file size 1073741824 B, open files 1024, tmp 268435456 B
                """;
        ActionRendering rendering = ActionRendering.of(DEPLOY);
        assertThat(rendering.text()).isEqualTo(expected);
        assertThat(rendering.digest())
                .isEqualTo(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256")
                                .digest(expected.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void invisibleAndLineBreakingCharactersCannotPoseAsSomethingElse() {
        Action sneaky = new Action(
                "acme",
                "deploy",
                List.of("ledger\u202Etxt.exe", "a\nsandbox: none"),
                null,
                Map.of(),
                List.of(),
                "PT30S",
                null);
        assertThat(ActionRendering.of(sneaky).text()).isEqualTo("""
                tenant: acme
                tool: deploy
                argv[0]: ledger\\xe2\\x80\\xaetxt.exe
                argv[1]: a\\x0asandbox: none
                working-dir: (a fresh empty directory)
                timeout: PT30S
                """);
    }

    @Test
    void anUnisolatedSandboxListsNoTermsAndAnyChangeChangesTheDigest() {
        Action none = new Action(
                "acme",
                "deploy",
                DEPLOY.argv(),
                "/srv/work",
                Map.of("MODE", "safe"),
                List.of("TOKEN"),
                "PT30S",
                new Action.Sandbox("none", false, List.of(), List.of(), 0, 0, 0, 0, 0));
        assertThat(ActionRendering.of(none).text()).endsWith("timeout: PT30S\nsandbox: none\n");
        String digest = ActionRendering.of(DEPLOY).digest();
        assertThat(List.of(
                        ActionRendering.of(none).digest(),
                        ActionRendering.of(new Action(
                                        "globex",
                                        "deploy",
                                        DEPLOY.argv(),
                                        "/srv/work",
                                        DEPLOY.env(),
                                        List.of("TOKEN"),
                                        "PT30S",
                                        SANDBOX))
                                .digest(),
                        ActionRendering.of(new Action(
                                        "acme",
                                        "deploy",
                                        List.of("deploy", "--service", "ledger2"),
                                        "/srv/work",
                                        DEPLOY.env(),
                                        List.of("TOKEN"),
                                        "PT30S",
                                        SANDBOX))
                                .digest(),
                        ActionRendering.of(new Action(
                                        "acme",
                                        "deploy",
                                        DEPLOY.argv(),
                                        "/srv/work",
                                        DEPLOY.env(),
                                        List.of("TOKEN"),
                                        "PT30S",
                                        new Action.Sandbox(
                                                "bubblewrap",
                                                true,
                                                List.of("/srv/in"),
                                                List.of("/srv/out"),
                                                256,
                                                1L << 30,
                                                1L << 30,
                                                1024,
                                                256L << 20)))
                                .digest()))
                .doesNotContain(digest)
                .doesNotHaveDuplicates();
    }

    @org.junit.jupiter.api.Test
    void theRuleThatDecidedIsPartOfWhatIsApproved() {
        ActionRendering plain = ActionRendering.of(DEPLOY);
        ActionRendering byRule = plain.decidedBy("rule 1: args.namespace == \"prod\"");
        ActionRendering byAnother = plain.decidedBy("rule 2: args.count > 100");
        ActionRendering byDefault = plain.decidedBy("the tool's own settings");
        assertThat(byRule.text())
                .startsWith(plain.text())
                .endsWith("policy-rule: rule 1: args.namespace == \"prod\"\n");
        assertThat(java.util.List.of(plain.digest(), byRule.digest(), byAnother.digest(), byDefault.digest()))
                .doesNotHaveDuplicates();
        assertThat(plain.decidedBy(null))
                .as("runs requested before rules keep their digest")
                .isEqualTo(plain);
    }

    @org.junit.jupiter.api.Test
    void anHttpRequestShowsEveryHeaderTheBodyAndItsDigestButNoCredential() {
        HttpAction call = new HttpAction(
                "acme",
                "restart",
                "deploy",
                "POST",
                "https://deploy.example.com/v1/services/a",
                java.util.List.of(
                        new HttpAction.Header("Authorization", "[secret TOKEN]"),
                        new HttpAction.Header("Content-Type", "application/json")),
                "{\"drain\":true}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "{\n  \"drain\" : true\n}",
                "PT30S");
        ActionRendering rendered = ActionRendering.of(call);
        assertThat(rendered.text()).isEqualTo("""
                tenant: acme
                tool: restart
                upstream: deploy
                method: POST
                url: https://deploy.example.com/v1/services/a
                header Authorization: [secret TOKEN]
                header Content-Type: application/json
                body-sha256: %s
                body: {
                body:   "drain" : true
                body: }
                timeout: PT30S
                """.formatted(dev.airlock.kernel.digest.Sha256.hex("{\"drain\":true}")));
        HttpAction other = new HttpAction(
                "acme",
                "restart",
                "deploy",
                "POST",
                "https://deploy.example.com/v1/services/a",
                call.headers(),
                "{\"drain\":false}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                call.bodyView(),
                "PT30S");
        assertThat(ActionRendering.of(other).digest())
                .as("the exact body bytes count, whatever is shown")
                .isNotEqualTo(rendered.digest());
    }
}
