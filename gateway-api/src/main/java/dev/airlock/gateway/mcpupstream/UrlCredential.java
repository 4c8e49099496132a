package dev.airlock.gateway.mcpupstream;

import dev.airlock.egress.EgressRequest;
import dev.airlock.gateway.capture.SecretReference;
import dev.airlock.gateway.capture.SecretSource;
import dev.airlock.gateway.tool.HttpUpstream;
import dev.airlock.gateway.upstream.UpstreamCredentials;
import dev.airlock.sanitizer.SecretRedactor;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A URL server's credential: its header, its secret values read at each use, and what redacts
 * them. Every value ever read for it stays redacted for the server's lifetime, so that neither a
 * secret rotated between a message and its answer nor one that cannot be read any more lets a
 * value that went out come back unredacted.
 */
final class UrlCredential {

    private final HttpUpstream.@Nullable Auth auth;
    private final SecretSource secrets;
    /** Every value read, for redaction. */
    private final SeenSecrets seen = new SeenSecrets();

    UrlCredential(HttpUpstream.@Nullable Auth auth, SecretSource secrets) {
        this.auth = auth;
        this.secrets = secrets;
    }

    /**
     * The credential's header, its values read now (and kept for redaction); none without auth.
     *
     * @throws IllegalStateException when a secret cannot be read: nothing is sent without it
     */
    EgressRequest.@Nullable Header header() {
        if (auth == null) {
            return null;
        }
        try {
            return read(auth);
        } catch (IllegalArgumentException | SecretReference.SecretUnavailable e) {
            throw new IllegalStateException("the server's secret is not available (" + e.getMessage() + ")");
        }
    }

    /** What redacts every value of the credential read so far and its values now, if they can be read. */
    SecretRedactor redactor() {
        if (auth != null) {
            try {
                read(auth);
            } catch (IllegalArgumentException | SecretReference.SecretUnavailable e) {
                // Not readable now: what was read before (and could have been sent) is still redacted.
            }
        }
        return seen.redactor();
    }

    /** The credential's header, its secret values read now and remembered. */
    private EgressRequest.Header read(HttpUpstream.Auth terms) throws SecretReference.SecretUnavailable {
        Map<String, String> values = new HashMap<>();
        EgressRequest.Header header = UpstreamCredentials.header(terms, secrets, values);
        seen.remember(values);
        return header;
    }
}
