package dev.airlock.gateway.run;

import dev.airlock.persistence.run.ActionKind;
import dev.airlock.persistence.run.RunRecord;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What executing a run needs, taken from the run as it was stored.
 *
 * @param runId            the run
 * @param tenant           its tenant
 * @param toolSnapshotId   the tool definition it was requested under
 * @param argvJson         its command line, as stored ({@code []} for a call)
 * @param approvalRequired whether people approved it (then the action is checked again before it starts)
 * @param kind             what its action is
 * @param requestJson      for a call: the request as stored; null for a process
 * @param policyRule       the policy rule that decided the run, as stored; null for runs requested before rules
 * @param decidedHere      whether policy let the run start at once in this process just now (its record never left
 *                         this process's hands, so it can have no approval request to check against)
 * @param run              the run as it was started; never changed (its end is applied to a {@link RunRecord#copy copy}
 *                         of it when it is recorded), so it may be read by the thread that submitted it as well
 */
record Execution(
        UUID runId,
        String tenant,
        long toolSnapshotId,
        String argvJson,
        boolean approvalRequired,
        ActionKind kind,
        @Nullable String requestJson,
        @Nullable String policyRule,
        boolean decidedHere,
        RunRecord run) {

    /** What executing {@code run}, a run policy let start at once in this process just now, needs. */
    static Execution decidedHere(RunRecord run) {
        return of(run, !run.approvalRequired());
    }

    /** What executing {@code run}, as read from the database, needs. */
    static Execution of(RunRecord run) {
        return of(run, false);
    }

    private static Execution of(RunRecord run, boolean decidedHere) {
        return new Execution(
                run.id(),
                run.tenant(),
                run.toolSnapshotId(),
                run.argvJson(),
                run.approvalRequired(),
                run.kind(),
                run.requestJson(),
                run.policyRule(),
                decidedHere,
                run);
    }
}
