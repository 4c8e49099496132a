package dev.airlock.approval.audit.evidence;

import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.evidence.EvidenceFormat;
import dev.airlock.evidence.PublicKeys;
import dev.airlock.kernel.config.InvalidConfigurationException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Each tenant's evidence keys, read and checked at start-up: every public key decodes as Ed25519,
 * the signing key names a configured key with a private key, that private key is readable and
 * signs what its public key verifies. Anything else stops the start naming the key (fail closed:
 * a tenant whose key cannot sign exports nothing rather than something unverifiable). Private
 * keys are never logged or shown.
 */
@Component
public class EvidenceKeys {

    private static final String KEY_ID = "[A-Za-z0-9._-]{1,64}";

    /**
     * A tenant's keys.
     *
     * @param tenant     the tenant
     * @param publicKeys every key, current and old
     * @param signingKey the id of the key that signs now
     * @param privateKey its private key
     */
    public record Keyring(String tenant, PublicKeys publicKeys, String signingKey, PrivateKey privateKey) {

        /** The Base64 Ed25519 signature of {@code payload} by the signing key. */
        public String sign(byte[] payload) {
            try {
                Signature signer = Signature.getInstance(EvidenceFormat.ALGORITHM);
                signer.initSign(privateKey);
                signer.update(payload);
                return Base64.getEncoder().encodeToString(signer.sign());
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("an Ed25519 key checked at start-up could not sign", e);
            }
        }

        @Override
        public String toString() {
            return "Keyring[" + tenant + ", signing key " + signingKey + "]";
        }
    }

    private final Map<String, Keyring> keyrings;
    private final Map<String, PublicKeys> publicOnly;

    @org.springframework.beans.factory.annotation.Autowired
    EvidenceKeys(PeopleSettings people) {
        this(people, name -> Optional.ofNullable(System.getenv(name)));
    }

    EvidenceKeys(PeopleSettings people, Function<String, Optional<String>> environment) {
        Map<String, Keyring> rings = new LinkedHashMap<>();
        Map<String, PublicKeys> publics = new LinkedHashMap<>();
        people.tenants().forEach((tenant, settings) -> {
            PeopleSettings.Evidence evidence = settings.evidence();
            String key = "airlock.tenants." + tenant + ".evidence";
            if (evidence.keys().isEmpty()) {
                if (evidence.signingKey() != null) {
                    throw new InvalidConfigurationException(key + ".signing-key", "names no key of " + key + ".keys");
                }
                return;
            }
            Map<String, PublicKey> keys = new LinkedHashMap<>();
            evidence.keys().forEach((id, k) -> {
                if (!id.matches(KEY_ID)) {
                    throw new InvalidConfigurationException(
                            key + ".keys." + id, "a key id is 1 to 64 letters, digits, '.', '_' or '-'");
                }
                try {
                    keys.put(id, PublicKeys.decode(pem(k.publicKey(), "PUBLIC KEY")));
                } catch (IllegalArgumentException e) {
                    throw new InvalidConfigurationException(
                            key + ".keys." + id + ".public-key", "is not a Base64 X.509 (or PEM) Ed25519 public key");
                }
            });
            PublicKeys document = new PublicKeys(tenant, keys);
            publics.put(tenant, document);
            String signing = evidence.signingKey();
            if (signing == null) {
                evidence.keys().forEach((id, k) -> {
                    if (k.privateKey() != null) {
                        throw new InvalidConfigurationException(
                                key + ".keys." + id + ".private-key", "is set but " + key + ".signing-key is not");
                    }
                });
                return;
            }
            PeopleSettings.EvidenceKey current = evidence.keys().get(signing);
            if (current == null) {
                throw new InvalidConfigurationException(key + ".signing-key", "names no key of " + key + ".keys");
            }
            evidence.keys().forEach((id, k) -> {
                if (!id.equals(signing) && k.privateKey() != null) {
                    throw new InvalidConfigurationException(
                            key + ".keys." + id + ".private-key",
                            "only the signing key has a private key here; an old key keeps its public key only");
                }
            });
            String where = key + ".keys." + signing + ".private-key";
            if (current.privateKey() == null) {
                throw new InvalidConfigurationException(
                        where, "the signing key needs its private key (env:NAME or file:/path)");
            }
            PrivateKey privateKey = privateKey(
                    dev.airlock.approval.settings.SecretText.read(current.privateKey(), where, environment), where);
            Keyring ring = new Keyring(tenant, document, signing, privateKey);
            byte[] probe = ("airlock evidence key check " + tenant).getBytes(StandardCharsets.UTF_8);
            if (!document.verifies(signing, probe, ring.sign(probe))) {
                throw new InvalidConfigurationException(
                        where, "is not the private key of " + key + ".keys." + signing + ".public-key");
            }
            rings.put(tenant, ring);
        });
        this.keyrings = Map.copyOf(rings);
        this.publicOnly = Map.copyOf(publics);
    }

    /** The tenant's keys for signing, if it has a signing key. */
    public Optional<Keyring> keyring(String tenant) {
        return Optional.ofNullable(keyrings.get(tenant));
    }

    /** Tenants that sign. */
    public List<String> signingTenants() {
        return keyrings.keySet().stream().sorted().toList();
    }

    /** The tenant's public keys document (docs/evidence.md), if it has keys. */
    public Optional<Map<String, Object>> document(String tenant) {
        PublicKeys keys = publicOnly.get(tenant);
        if (keys == null) {
            return Optional.empty();
        }
        String signing = keyring(tenant).map(Keyring::signingKey).orElse(null);
        List<Map<String, Object>> list = keys.keys().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> {
                    String id = e.getKey();
                    Map<String, Object> key = new LinkedHashMap<>();
                    key.put("keyId", id);
                    key.put("algorithm", EvidenceFormat.ALGORITHM);
                    key.put(
                            "publicKey",
                            Base64.getEncoder().encodeToString(e.getValue().getEncoded()));
                    key.put("signing", id.equals(signing));
                    return key;
                })
                .toList();
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("tenant", tenant);
        document.put("keys", list);
        return Optional.of(document);
    }

    private static PrivateKey privateKey(String text, String where) {
        try {
            return KeyFactory.getInstance(EvidenceFormat.ALGORITHM)
                    .generatePrivate(
                            new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(pem(text, "PRIVATE KEY"))));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new InvalidConfigurationException(where, "is not a PKCS#8 Ed25519 private key (Base64 or PEM)");
        }
    }

    /** The Base64 body of a PEM block of {@code type}, or the text itself when it is no PEM. */
    private static String pem(@Nullable String text, String type) {
        if (text == null) {
            throw new IllegalArgumentException("missing");
        }
        String body = text.replace("-----BEGIN " + type + "-----", "").replace("-----END " + type + "-----", "");
        return body.replaceAll("\\s", "");
    }
}
