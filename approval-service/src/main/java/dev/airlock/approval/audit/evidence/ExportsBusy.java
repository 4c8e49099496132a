package dev.airlock.approval.audit.evidence;

import dev.airlock.kernel.problem.ApiProblem;

/** As many evidence exports as a replica runs at once are running: try again shortly. */
public final class ExportsBusy extends ApiProblem {

    private static final long serialVersionUID = 1L;

    ExportsBusy() {
        super(
                429,
                "evidence-exports-busy",
                "Evidence exports busy",
                "Other evidence exports are running on this replica (at most " + EvidenceBundles.CONCURRENT
                        + " at once); try again shortly.");
        header("Retry-After", "10");
    }
}
