package dev.airlock.gateway.mcpupstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.capture.SecretSource;
import dev.airlock.gateway.tool.HttpUpstream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A URL server's credential: what was sent stays redacted, whatever its source says later. */
class UrlCredentialTests {

    private final AtomicReference<String> current = new AtomicReference<>("first-token-0123456789");
    private final SecretSource secrets = name -> Optional.ofNullable(name.equals("MCP_TOKEN") ? current.get() : null);
    private final UrlCredential credential = new UrlCredential(
            new HttpUpstream.Auth("bearer", "Authorization", null, Map.of("token", "env:MCP_TOKEN")), secrets);

    @Test
    void aValueSentStaysRedactedWhenTheSecretCannotBeReadAnyMore() {
        assertThat(credential.header().value()).isEqualTo("Bearer first-token-0123456789");
        current.set(null);
        assertThat(credential.redactor().redact("echo: first-token-0123456789"))
                .isEqualTo("echo: [REDACTED:MCP_TOKEN_TOKEN]");
        assertThatThrownBy(credential::header).hasMessageContaining("not available");
    }

    @Test
    void aRotatedSecretsOldAndNewValuesAreBothRedacted() {
        credential.header();
        current.set("second-token-9876543210");
        assertThat(credential.header().value()).isEqualTo("Bearer second-token-9876543210");
        assertThat(credential.redactor().redact("first-token-0123456789 second-token-9876543210"))
                .doesNotContain("first-token", "second-token");
    }
}
