package dev.airlock.gateway.mcpupstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.settings.BoundSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A server's setting that cannot apply to its kind stops the start, naming it, instead of being without effect. */
class McpServerSettingsTests {

    private static final String KEY = "airlock.tenants.acme.mcp-servers.files";

    private static ServerSettings check(Map<String, String> entries) {
        Map<String, String> all = new HashMap<>(Map.of("airlock.tenants.acme.agents.bot.key-sha256", "a".repeat(64)));
        all.putAll(entries);
        BoundSettings bound = BoundSettings.bind(all);
        return McpServers.check(
                "acme",
                "files",
                KEY,
                bound.agent().tenant("acme").mcpServers().get("files"),
                bound.catalog(),
                name -> Optional.empty());
    }

    @ParameterizedTest
    @CsvSource({
        "max-concurrent-calls, 4, max-concurrent-calls",
        "allow-private-network, true, allow-private-network",
        "circuit-breaker.failure-rate-threshold, 20, circuit-breaker",
        "tls.trust-store, /etc/airlock/trust.p12, tls",
        "auth.type, bearer, auth"
    })
    void aStdioServerRefusesTheUrlClientsSettings(String setting, String value, String refused) {
        assertThatThrownBy(() -> check(Map.of(KEY + ".command[0]", "mcp-files", KEY + "." + setting, value)))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e ->
                        assertThat(((InvalidConfigurationException) e).key()).isEqualTo(KEY + "." + refused));
        assertThat(check(Map.of(KEY + ".command[0]", "mcp-files")).key()).isEqualTo(KEY);
    }

    @org.junit.jupiter.api.Test
    void rulesWhoseApprovalSettingsWouldNeverApplyToTheServersToolsStopTheStart() {
        Map<String, String> server = new HashMap<>(Map.of(
                KEY + ".command[0]", "mcp-files",
                KEY + ".rules[0].when", "true",
                KEY + ".rules[0].approvers", "2"));
        // Under the server's own approval (required) the rule asks two people, and is fine.
        assertThat(check(server).key()).isEqualTo(KEY);
        // Tools an override sets to auto inherit it: it would decide 'auto' with two approvers on record.
        server.put(KEY + ".tools.overrides[0].match[0]", "read_*");
        server.put(KEY + ".tools.overrides[0].approval", "auto");
        assertThatThrownBy(() -> check(server))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).key())
                        .isEqualTo(KEY + ".tools.overrides[0] (its approval) with " + KEY + ".rules[0]"))
                .hasMessageContaining("so nobody is asked");
        // An override with rules of its own is checked against its own approval.
        server.put(KEY + ".tools.overrides[0].rules[0].when", "true");
        server.put(KEY + ".tools.overrides[0].rules[0].approval", "auto");
        assertThat(check(server).key()).isEqualTo(KEY);
        server.put(KEY + ".tools.overrides[0].rules[0].notify", "ops");
        assertThatThrownBy(() -> check(server))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).key())
                        .isEqualTo(KEY + ".tools.overrides[0].rules[0]"));
    }
}
