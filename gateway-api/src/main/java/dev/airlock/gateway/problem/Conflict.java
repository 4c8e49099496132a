package dev.airlock.gateway.problem;

import dev.airlock.kernel.problem.ApiProblem;
import java.util.UUID;

/** 409: the request conflicts with the current state of a resource. */
public final class Conflict extends ApiProblem {

    private static final long serialVersionUID = 1L;

    private Conflict(String type, String title, String detail) {
        super(409, type, title, detail);
    }

    /** The idempotency key was used before for a different request. */
    public static Conflict idempotencyKeyReused(String key, UUID existingRun) {
        return (Conflict) new Conflict(
                        "idempotency-key-reused",
                        "Idempotency key reused",
                        "Idempotency-Key '" + key + "' was already used for a different request (run " + existingRun
                                + ").")
                .with("runId", existingRun.toString());
    }

    /** The run has already ended. */
    public static Conflict runEnded(UUID runId, String state) {
        Conflict conflict =
                new Conflict("run-ended", "Run already ended", "Run " + runId + " is already " + state + ".");
        conflict.with("runId", runId.toString());
        conflict.with("state", state);
        return conflict;
    }
}
