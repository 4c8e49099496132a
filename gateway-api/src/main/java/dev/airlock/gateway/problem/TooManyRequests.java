package dev.airlock.gateway.problem;

import dev.airlock.kernel.problem.ApiProblem;

/** 429: a limit is reached; {@code Retry-After} says when to try again. */
public final class TooManyRequests extends ApiProblem {

    private static final long serialVersionUID = 1L;

    private TooManyRequests(String type, String title, String detail, long retryAfterSeconds) {
        super(429, type, title, detail);
        header("Retry-After", Long.toString(Math.max(1, retryAfterSeconds)));
        with("retryAfterSeconds", Math.max(1, retryAfterSeconds));
    }

    /** The agent asked for more runs per minute than its tenant allows. */
    public static TooManyRequests rateLimited(String agent, int perMinute, long retryAfterSeconds) {
        return new TooManyRequests(
                "rate-limited",
                "Too many runs",
                "Agent '" + agent + "' may request " + perMinute + " runs per minute.",
                retryAfterSeconds);
    }

    /** The agent read runs (envelopes, output, cancels) more often per minute than its tenant allows. */
    public static TooManyRequests readLimited(String agent, int perMinute, long retryAfterSeconds) {
        return new TooManyRequests(
                "read-limited",
                "Too many reads",
                "Agent '" + agent + "' may read runs " + perMinute
                        + " times per minute; wait for a run with ?wait (or airlock_status's wait) instead of polling.",
                retryAfterSeconds);
    }

    /** The agent already has as many requests waiting for people as its tenant allows. */
    public static TooManyRequests approvalsPending(String agent, int pending) {
        return new TooManyRequests(
                "approvals-pending",
                "Too many requests waiting for approval",
                "Agent '" + agent + "' already has " + pending
                        + " requests waiting for people; wait for them to be decided before asking for more.",
                60);
    }

    /** The tenant already has as many runs executing as it may. */
    public static TooManyRequests tenantBusy(String tenant, int concurrent) {
        return new TooManyRequests(
                "tenant-busy",
                "Too many concurrent runs",
                "Tenant '" + tenant + "' already has " + concurrent + " runs executing.",
                1);
    }
}
