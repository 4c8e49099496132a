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
 */
record Execution(
        UUID runId,
        String tenant,
        long toolSnapshotId,
        String argvJson,
        boolean approvalRequired,
        ActionKind kind,
        @Nullable String requestJson,
        @Nullable String policyRule) {

    /** What executing {@code run} needs. */
    static Execution of(RunRecord run) {
        return new Execution(
                run.id(),
                run.tenant(),
                run.toolSnapshotId(),
                run.argvJson(),
                run.approvalRequired(),
                run.kind(),
                run.requestJson(),
                run.policyRule());
    }
}
