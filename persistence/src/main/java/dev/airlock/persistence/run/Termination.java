package dev.airlock.persistence.run;

/**
 * Why a run's action stopped, as Airlock observed it: a process (the first seven), a call to an
 * upstream (the rest; CANCELLED is both).
 */
public enum Termination {
    /** The process exited by itself; its exit code was observed. */
    EXITED,
    /** The run exceeded its time limit and its process tree was killed. */
    TIMEOUT,
    /** A stream exceeded its observed-bytes limit and the process tree was killed. */
    OUTPUT_LIMIT,
    /** The kernel killed the run's processes because the run reached its memory limit (known only with a cgroup per run). */
    MEMORY_LIMIT,
    /** Someone cancelled the run and its process tree was killed. */
    CANCELLED,
    /** The process could not be started. */
    SPAWN_FAILED,
    /** The replica supervising the process stopped renewing its lease; what the process did is unknown. */
    LOST,
    /** The upstream answered, whatever its status (a 4xx or 5xx answer too, as a non-zero exit). */
    RESPONDED,
    /** The call to an upstream ran out of time; the connection was cut. */
    TIMED_OUT,
    /** No connection to the upstream could be made. */
    CONNECT_FAILED,
    /** The upstream's circuit breaker was open: nothing was sent. */
    CIRCUIT_OPEN,
    /** The answer was longer than the upstream's limit: the connection was cut at the limit. */
    RESPONSE_LIMIT,
    /** The address guard or the redirect rule refused the connection: nothing was sent there. */
    REFUSED,
    /** An upstream MCP server answered with a JSON-RPC error. */
    UPSTREAM_ERROR,
    /** An upstream MCP server was not running, or died during the call. */
    SERVER_DOWN;

    /** The state a run ends in when its call to an upstream ended so. */
    public RunState callState() {
        return switch (this) {
            case RESPONDED, RESPONSE_LIMIT, UPSTREAM_ERROR -> RunState.COMPLETED;
            case TIMED_OUT -> RunState.TIMED_OUT;
            case CANCELLED -> RunState.CANCELLED;
            case CONNECT_FAILED, CIRCUIT_OPEN, REFUSED, SERVER_DOWN -> RunState.FAILED;
            default -> throw new IllegalArgumentException(this + " does not end a call");
        };
    }
}
