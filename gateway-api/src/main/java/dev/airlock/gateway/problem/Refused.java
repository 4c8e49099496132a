package dev.airlock.gateway.problem;

import java.util.UUID;
import org.springframework.http.HttpStatus;

/** 403: the tenant's policy refuses the tool; the refusal is recorded as a DENIED run. */
public final class Refused extends ApiProblem {

    private static final long serialVersionUID = 1L;

    private Refused(String detail) {
        super(HttpStatus.FORBIDDEN, "tool-denied", "Tool denied by policy", detail);
    }

    public static Refused byPolicy(String tool, UUID runId) {
        return (Refused) new Refused("Policy denies tool '" + tool + "'. The refusal is recorded as run " + runId + ".")
                .with("runId", runId.toString());
    }
}
