package dev.airlock.approval.notify;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs webhook deliveries as the Standard Webhooks specification describes
 * (https://www.standardwebhooks.com): {@code webhook-id}, {@code webhook-timestamp} (Unix seconds)
 * and {@code webhook-signature: v1,<Base64 of HMAC-SHA256(secret, id + "." + timestamp + "." + body)>},
 * so that a receiver with the shared secret can check that a delivery is Airlock's, unchanged and
 * recent. The secret is the specification's: Base64 bytes, optionally prefixed {@code whsec_}.
 */
final class WebhookSignature {

    private static final String ALGORITHM = "HmacSHA256";
    private static final String PREFIX = "whsec_";

    private final byte[] key;

    private WebhookSignature(byte[] key) {
        this.key = key;
    }

    /**
     * The signer of {@code secret}.
     *
     * @param where the setting's key, for the error
     * @throws InvalidConfigurationException when the secret is not Base64 of at least 24 bytes
     */
    static WebhookSignature of(String secret, String where) {
        String encoded = secret.strip();
        if (encoded.startsWith(PREFIX)) {
            encoded = encoded.substring(PREFIX.length());
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException(where, "must be Base64 (optionally prefixed whsec_)");
        }
        if (key.length < 24) {
            throw new InvalidConfigurationException(where, "must hold at least 24 random bytes");
        }
        return new WebhookSignature(key);
    }

    /** The headers of one delivery attempt of {@code body} with id {@code id} at {@code timestamp}. */
    Map<String, String> headers(String id, long timestamp, byte[] body) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("webhook-id", id);
        headers.put("webhook-timestamp", Long.toString(timestamp));
        headers.put("webhook-signature", "v1," + sign(id, timestamp, body));
        return headers;
    }

    String sign(String id, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }
}
