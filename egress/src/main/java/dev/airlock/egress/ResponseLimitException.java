package dev.airlock.egress;

import java.io.IOException;

/** The body was longer than the upstream's limit; nothing past the limit was read. */
public final class ResponseLimitException extends IOException {

    private static final long serialVersionUID = 1L;

    ResponseLimitException(long limit) {
        super("the response body is longer than " + limit + " bytes");
    }
}
