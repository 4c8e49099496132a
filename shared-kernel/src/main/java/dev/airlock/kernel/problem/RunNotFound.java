package dev.airlock.kernel.problem;

import java.util.UUID;

/** 404: no run with this id in the caller's tenant (another tenant's run looks the same). */
public final class RunNotFound extends ApiProblem {

    private static final long serialVersionUID = 1L;

    private RunNotFound(String detail) {
        super(404, "run-not-found", "Run not found", detail);
    }

    public static RunNotFound forId(UUID id) {
        return new RunNotFound("No run " + id + " exists for you.");
    }

    public static RunNotFound forText(String id) {
        return new RunNotFound("No run " + id + " exists for you.");
    }
}
