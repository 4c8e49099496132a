package dev.airlock.egress;

import java.net.URI;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a call to an upstream did: facts only Airlock writes.
 *
 * @param termination why it ended
 * @param status      the status of the answer read, or null when none was
 * @param headers     the answer's content type and length as sent ({@code content-type}, {@code
 *                    content-length}), when present
 * @param attempts    attempts made (0 when the breaker refused the call)
 * @param reason      why the call failed or was refused, naming no secret; null when it responded
 * @param finalUrl    the URL of the answer read (after redirects within the origin)
 * @param startedAt   when the call started
 * @param endedAt     when it ended
 */
public record EgressResult(
        EgressTermination termination,
        @Nullable Integer status,
        Map<String, String> headers,
        int attempts,
        @Nullable String reason,
        URI finalUrl,
        Instant startedAt,
        Instant endedAt) {

    public EgressResult {
        headers = Map.copyOf(headers);
    }
}
