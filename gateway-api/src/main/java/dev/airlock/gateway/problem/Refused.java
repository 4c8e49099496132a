package dev.airlock.gateway.problem;

import dev.airlock.kernel.problem.ApiProblem;
import java.util.UUID;

/** 403: the tenant's policy refuses the tool; the refusal is recorded as a DENIED run. */
public final class Refused extends ApiProblem {

    private static final long serialVersionUID = 1L;

    private final UUID runId;

    private Refused(String detail, UUID runId) {
        super(403, "tool-denied", "Tool denied by policy", detail);
        this.runId = runId;
    }

    public static Refused byPolicy(String tool, UUID runId) {
        return byPolicy(tool, runId, "the tool's own settings");
    }

    /** The policy refused the tool for this request; {@code rule} says which rule (or why none could decide). */
    public static Refused byPolicy(String tool, UUID runId, String rule) {
        Refused refused = new Refused(
                "Policy denies tool '" + tool + "' (" + rule + "). The refusal is recorded as run " + runId + ".",
                runId);
        refused.with("runId", runId.toString());
        refused.with("rule", rule);
        return refused;
    }

    /** The DENIED run that records the refusal. */
    public UUID runId() {
        return runId;
    }
}
