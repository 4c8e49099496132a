package dev.airlock.approval.audit.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.evidence.PublicKeys;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.SettingsBinder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** A tenant's evidence keys as configured: what signs, what is listed, and every way a key stops the start. */
class EvidenceKeysTests {

    private static final KeyPair CURRENT = pair();
    private static final KeyPair OLD = pair();
    private static final KeyPair STRANGER = pair();

    private static KeyPair pair() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String publicKey(KeyPair pair) {
        return Base64.getEncoder().encodeToString(pair.getPublic().getEncoded());
    }

    private static String privatePem(KeyPair pair) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }

    /** A tenant with a signing key {@code new} (private key in EVIDENCE_KEY) and an old key, then {@code changes}. */
    private static EvidenceKeys keys(Map<String, String> changes, Map<String, String> environment) {
        Map<String, String> entries = new HashMap<>(Map.of(
                "airlock.tenants.acme.evidence.signing-key",
                "new",
                "airlock.tenants.acme.evidence.keys.new.public-key",
                publicKey(CURRENT),
                "airlock.tenants.acme.evidence.keys.new.private-key",
                "env:EVIDENCE_KEY",
                "airlock.tenants.acme.evidence.keys.old.public-key",
                publicKey(OLD)));
        changes.forEach((k, v) -> {
            if (v.equals("(unset)")) {
                entries.remove(k);
            } else {
                entries.put(k, v);
            }
        });
        PeopleSettings settings =
                SettingsBinder.bind(List.of(new MapConfigurationPropertySource(entries)), PeopleSettings.class);
        return new EvidenceKeys(settings, name -> Optional.ofNullable(environment.get(name)));
    }

    private static EvidenceKeys keys(Map<String, String> changes) {
        return keys(changes, Map.of("EVIDENCE_KEY", privatePem(CURRENT), "STRANGER_KEY", privatePem(STRANGER)));
    }

    @Test
    void theSigningKeySignsAndEveryKeyIsListed() {
        EvidenceKeys keys = keys(Map.of());
        EvidenceKeys.Keyring ring = keys.keyring("acme").orElseThrow();
        byte[] payload = "manifest".getBytes(StandardCharsets.UTF_8);
        assertThat(ring.signingKey()).isEqualTo("new");
        assertThat(ring.publicKeys().verifies("new", payload, ring.sign(payload)))
                .isTrue();
        assertThat(ring.publicKeys().verifies("old", payload, ring.sign(payload)))
                .isFalse();
        assertThat(ring.toString())
                .doesNotContain(
                        Base64.getEncoder().encodeToString(CURRENT.getPrivate().getEncoded()));
        Map<String, Object> document = keys.document("acme").orElseThrow();
        PublicKeys parsed = PublicKeys.parse(
                tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(document));
        assertThat(parsed.tenant()).isEqualTo("acme");
        assertThat(parsed.ids()).containsExactly("new", "old");
        assertThat(keys.keyring("globex")).isEmpty();
        assertThat(keys.document("globex")).isEmpty();
        assertThat(keys.signingTenants()).containsExactly("acme");
    }

    @Test
    void aTenantWithOnlyPublicKeysListsThemAndSignsNothing() {
        EvidenceKeys keys = keys(Map.of(
                "airlock.tenants.acme.evidence.signing-key", "(unset)",
                "airlock.tenants.acme.evidence.keys.new.private-key", "(unset)"));
        assertThat(keys.keyring("acme")).isEmpty();
        assertThat(keys.document("acme")).isPresent();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a signing key that is not listed    | signing-key                | missing          | airlock.tenants.acme.evidence.signing-key
            a public key that does not decode   | keys.old.public-key        | bm90IGEga2V5     | airlock.tenants.acme.evidence.keys.old.public-key
            a signing key without private key   | keys.new.private-key       | (unset)          | airlock.tenants.acme.evidence.keys.new.private-key
            a private key from nowhere          | keys.new.private-key       | vault:acme       | airlock.tenants.acme.evidence.keys.new.private-key
            an unset variable                   | keys.new.private-key       | env:NOT_SET      | airlock.tenants.acme.evidence.keys.new.private-key
            a relative file                     | keys.new.private-key       | file:key.pem     | airlock.tenants.acme.evidence.keys.new.private-key
            a file that is not there            | keys.new.private-key       | file:/nonexistent/key.pem | airlock.tenants.acme.evidence.keys.new.private-key
            another pair's private key          | keys.new.private-key       | env:STRANGER_KEY | airlock.tenants.acme.evidence.keys.new.private-key
            an old key with a private key       | keys.old.private-key       | env:EVIDENCE_KEY | airlock.tenants.acme.evidence.keys.old.private-key
            """)
    void aKeyThatCannotBeHonouredStopsTheStartNamingIt(String what, String key, String value, String named) {
        assertThatThrownBy(() -> keys(Map.of("airlock.tenants.acme.evidence." + key, value)))
                .as(what)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith(named);
    }

    @Test
    void aPrivateKeyThatIsNoKeyStopsTheStartWithoutShowingIt() {
        assertThatThrownBy(() -> keys(Map.of(), Map.of("EVIDENCE_KEY", "s3cr3t-not-a-key")))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith("airlock.tenants.acme.evidence.keys.new.private-key")
                .hasMessageNotContaining("s3cr3t");
    }
}
