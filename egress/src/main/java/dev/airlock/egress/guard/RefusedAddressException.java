package dev.airlock.egress.guard;

import java.net.UnknownHostException;

/**
 * A connection the address guard refused: the host, the address it resolved to and why. An
 * {@link UnknownHostException} so that the HTTP client stops trying that host at once, as it would
 * for a name that does not resolve.
 */
public final class RefusedAddressException extends UnknownHostException {

    private static final long serialVersionUID = 1L;

    private final String reason;

    public RefusedAddressException(String reason) {
        super(reason);
        this.reason = reason;
    }

    /** Why the connection was refused, naming the host and address; never anything secret. */
    public String reason() {
        return reason;
    }
}
