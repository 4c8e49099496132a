package dev.airlock.kernel.action;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The exact HTTP request an HTTP tool's run sends, as approvers see it: everything that decides
 * what the upstream receives, credentials shown only by the name of their source.
 *
 * @param tenant      the tenant
 * @param tool        the tool's name
 * @param upstream    the upstream's name
 * @param method      the method
 * @param url         the URL, query included
 * @param headers     the headers in the order they are sent; a credential's value is {@code [secret NAME]}
 * @param body        the exact body bytes, or null for none
 * @param bodyView    the body as people read it (JSON pretty-printed), or null for none
 * @param timeout     the whole call's time limit, ISO-8601
 */
public record HttpAction(
        String tenant,
        String tool,
        String upstream,
        String method,
        String url,
        List<Header> headers,
        byte @Nullable [] body,
        @Nullable String bodyView,
        String timeout) {

    /**
     * One header as shown.
     *
     * @param name  its name
     * @param value its value, or {@code [secret NAME]} for a credential
     */
    public record Header(String name, String value) {}
}
