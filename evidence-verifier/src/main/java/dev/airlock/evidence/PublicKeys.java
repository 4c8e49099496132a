package dev.airlock.evidence;

import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tenant's evidence public keys, as Airlock serves them ({@code GET /api/v1/audit/evidence/keys})
 * and prints them: {@code {"tenant": "acme", "keys": [{"keyId": "…", "algorithm": "Ed25519",
 * "publicKey": "<base64 X.509>"}, …]}}. Old keys stay listed after a rotation, so bundles and
 * anchors signed with them still verify.
 *
 * @param tenant the tenant the keys belong to
 * @param keys   the public keys by key id
 */
public record PublicKeys(String tenant, Map<String, PublicKey> keys) {

    public PublicKeys {
        keys = Map.copyOf(keys);
    }

    /** Reads a keys document. */
    public static PublicKeys parse(String json) {
        Map<String, Object> document = Json.object(json);
        String tenant = Fields.string(document, "tenant", "keys");
        Map<String, PublicKey> keys = new LinkedHashMap<>();
        for (Object item : Fields.list(document, "keys", "keys")) {
            if (!(item instanceof Map<?, ?> key)) {
                throw new IllegalArgumentException("keys: each key is a JSON object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) key;
            String id = Fields.string(fields, "keyId", "keys");
            if (!EvidenceFormat.ALGORITHM.equals(fields.get("algorithm"))) {
                throw new IllegalArgumentException(
                        "keys: key " + id + " is not an " + EvidenceFormat.ALGORITHM + " key");
            }
            keys.put(id, decode(Fields.string(fields, "publicKey", "keys")));
        }
        return new PublicKeys(tenant, keys);
    }

    /** An Ed25519 public key from the Base64 of its X.509 encoding. */
    public static PublicKey decode(String base64) {
        try {
            return KeyFactory.getInstance(EvidenceFormat.ALGORITHM)
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64.strip())));
        } catch (java.security.GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a Base64 X.509 " + EvidenceFormat.ALGORITHM + " public key", e);
        }
    }

    /** Whether {@code signature} (Base64) is this tenant's key {@code keyId}'s signature of {@code payload}. */
    public boolean verifies(String keyId, byte[] payload, String signature) {
        PublicKey key = keys.get(keyId);
        if (key == null) {
            return false;
        }
        try {
            Signature check = Signature.getInstance(EvidenceFormat.ALGORITHM);
            check.initVerify(key);
            check.update(payload);
            return check.verify(Base64.getDecoder().decode(signature));
        } catch (java.security.GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    /** The key ids, for messages. */
    public List<String> ids() {
        return keys.keySet().stream().sorted().toList();
    }
}
