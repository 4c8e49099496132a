package dev.airlock.gateway.tool;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP tool's request for one run, exactly as it will be sent except for the upstream's
 * credential, which is added when it is sent and never recorded. Recorded with the run (as JSON);
 * its rendering is what people approve.
 *
 * @param upstream    the upstream's name
 * @param method      the method
 * @param url         the whole URL, query included, every value percent-encoded
 * @param headers     the headers the tool sets, in order (never a credential)
 * @param body        the body bytes, or null for none
 * @param bodyView    the body as people read it (pretty-printed JSON), or null
 * @param contentType the body's content type, or null
 * @param idempotent  whether the request may be sent again after a failure
 */
public record RenderedRequest(
        String upstream,
        String method,
        String url,
        List<Header> headers,
        byte @Nullable [] body,
        @Nullable String bodyView,
        @Nullable String contentType,
        boolean idempotent) {

    public RenderedRequest {
        headers = List.copyOf(headers);
    }

    /**
     * One header the tool sets.
     *
     * @param name  its name
     * @param value its value
     */
    public record Header(String name, String value) {}
}
