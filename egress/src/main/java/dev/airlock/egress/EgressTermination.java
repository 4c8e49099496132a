package dev.airlock.egress;

/** Why a call to an upstream ended. */
public enum EgressTermination {
    /** The upstream answered, whatever its status; the whole body (within the limit) was read. */
    RESPONDED,
    /** An attempt or the whole call ran out of time; the connection was cut. */
    TIMED_OUT,
    /** No connection could be made (refused, unreachable, TLS failure, a name that does not resolve). */
    CONNECT_FAILED,
    /** The upstream's circuit breaker is open: nothing was sent. */
    CIRCUIT_OPEN,
    /** The body was longer than the upstream's limit: the connection was cut at the limit. */
    RESPONSE_LIMIT,
    /** The address guard (or the redirect rule) refused the connection: nothing was sent there. */
    REFUSED,
    /** The call was cancelled; the connection was cut. */
    CANCELLED
}
