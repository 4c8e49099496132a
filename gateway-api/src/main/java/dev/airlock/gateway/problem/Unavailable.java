package dev.airlock.gateway.problem;

import dev.airlock.kernel.problem.ApiProblem;

/** 503: Airlock cannot take the request right now; {@code Retry-After} says when to try again. */
public final class Unavailable extends ApiProblem {

    private static final long serialVersionUID = 1L;

    /** Seconds a client should wait before trying again. */
    public static final long RETRY_AFTER_SECONDS = 5;

    private Unavailable(String type, String title, String detail) {
        super(503, type, title, detail);
        header("Retry-After", Long.toString(RETRY_AFTER_SECONDS));
        with("retryAfterSeconds", RETRY_AFTER_SECONDS);
    }

    /** This replica is shutting down and takes no new runs; another replica will. */
    public static Unavailable draining() {
        return new Unavailable(
                "draining",
                "Shutting down",
                "This replica is shutting down and takes no new runs; try again (another replica will answer).");
    }

    /** The database cannot be reached. */
    public static Unavailable database() {
        return new Unavailable(
                "database-unavailable",
                "Database unavailable",
                "Airlock cannot reach its database right now; nothing was recorded for this request. Try again.");
    }

    /** The run could not be recorded within {@code RunService}'s limit (the tenant's audit log was busy); nothing was kept. */
    public static Unavailable recordingLate() {
        return new Unavailable(
                "recording-late",
                "Recording took too long",
                "The run could not be recorded in time (the tenant's audit log was busy); nothing was kept and nothing"
                        + " ran. Try again.");
    }
}
