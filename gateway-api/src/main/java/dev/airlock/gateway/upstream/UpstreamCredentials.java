package dev.airlock.gateway.upstream;

import dev.airlock.egress.EgressRequest;
import dev.airlock.gateway.capture.SecretReference;
import dev.airlock.gateway.capture.SecretSource;
import dev.airlock.gateway.tool.HttpUpstream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

/**
 * The header that carries an upstream's credential, its secret read now from the gateway's own
 * sources; every secret value read is noted for redaction.
 */
public final class UpstreamCredentials {

    private UpstreamCredentials() {}

    /**
     * The credential's header for {@code auth}, its secret values put in {@code values} (by a name
     * for redaction reports).
     *
     * @throws SecretReference.SecretUnavailable when a secret cannot be read
     * @throws IllegalArgumentException when the terms name no source for a part
     */
    public static EgressRequest.Header header(HttpUpstream.Auth auth, SecretSource secrets, Map<String, String> values)
            throws SecretReference.SecretUnavailable {
        return switch (auth.type()) {
            case "bearer" -> {
                String token = read(auth, "token", secrets, values);
                yield new EgressRequest.Header("Authorization", "Bearer " + token);
            }
            case "basic" -> {
                String password = read(auth, "password", secrets, values);
                String encoded = Base64.getEncoder()
                        .encodeToString((auth.username() + ":" + password).getBytes(StandardCharsets.UTF_8));
                values.put(name(auth, "password") + "_BASIC", encoded);
                yield new EgressRequest.Header("Authorization", "Basic " + encoded);
            }
            case "header" -> new EgressRequest.Header(auth.headerName(), read(auth, "value", secrets, values));
            default -> throw new IllegalArgumentException("unknown auth type " + auth.type());
        };
    }

    private static String read(HttpUpstream.Auth auth, String part, SecretSource secrets, Map<String, String> values)
            throws SecretReference.SecretUnavailable {
        String source = auth.sources().get(part);
        if (source == null) {
            throw new IllegalArgumentException("no source for the " + part);
        }
        String value = SecretReference.parse(source).read(secrets);
        values.put(name(auth, part), value);
        return value;
    }

    private static String name(HttpUpstream.Auth auth, String part) {
        String shown = auth.shown();
        return shown.substring("[secret ".length(), shown.length() - 1).toUpperCase(Locale.ROOT) + "_"
                + part.toUpperCase(Locale.ROOT);
    }
}
