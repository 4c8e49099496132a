package dev.airlock.gateway.problem;

import java.util.UUID;
import org.springframework.http.HttpStatus;

/** 409: the request conflicts with the current state of a resource. */
public final class Conflict extends ApiProblem {

    private static final long serialVersionUID = 1L;

    private Conflict(String type, String title, String detail) {
        super(HttpStatus.CONFLICT, type, title, detail);
    }

    /** The idempotency key was used before for a different request. */
    public static Conflict idempotencyKeyReused(String key, UUID existingRun) {
        return (Conflict) new Conflict("idempotency-key-reused", "Idempotency key reused",
                "Idempotency-Key '" + key + "' was already used for a different request (run " + existingRun + ").")
                .with("runId", existingRun.toString());
    }

    /** The run has already ended. */
    public static Conflict runEnded(UUID runId, String state) {
        return (Conflict) new Conflict("run-ended", "Run already ended", "Run " + runId + " is already " + state + ".")
                .with("runId", runId.toString())
                .with("state", state);
    }
}
