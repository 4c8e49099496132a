package dev.airlock.gateway.capture;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What Airlock sent to an upstream and observed of its answer, recorded with the run (as JSON) and
 * shown in the envelope's {@code http}. Never a credential.
 *
 * @param upstream   the upstream's name
 * @param method     the method sent
 * @param url        the URL of the answer read (after redirects within the origin)
 * @param status     the answer's status, or null when none was read
 * @param headers    the answer's content type and length, when sent
 * @param attempts   attempts made
 * @param reason     why the call failed or was refused; null when it responded
 * @param text       whether the body was text (false: kept only in the raw artifact)
 */
public record CallFacts(
        String upstream,
        String method,
        String url,
        @Nullable Integer status,
        Map<String, String> headers,
        int attempts,
        @Nullable String reason,
        boolean text)
        implements CallObservation {

    public CallFacts {
        headers = Map.copyOf(headers);
    }
}
