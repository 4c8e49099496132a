package dev.airlock.persistence.run;

import java.util.Arrays;
import java.util.UUID;

/** A state change the run's life cycle does not allow from its current state. */
public class IllegalRunTransition extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final transient RunState current;

    IllegalRunTransition(UUID runId, RunState current, RunState... allowed) {
        super("run " + runId + " is " + current + "; this change needs one of " + Arrays.toString(allowed));
        this.current = current;
    }

    /** The state the run was in. */
    public RunState current() {
        return current;
    }
}
