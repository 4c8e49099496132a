package dev.airlock.persistence.event;

import dev.airlock.persistence.run.RunState;
import dev.airlock.persistence.run.Termination;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Published, inside the transaction that records it, when a run that humans approved has ended,
 * so that those who were told of the request hear how it ended. It carries facts Airlock
 * observed, never output.
 *
 * @param runId       the run
 * @param tenant      its tenant
 * @param tool        the tool
 * @param state       how the run ended: COMPLETED, FAILED, TIMED_OUT or CANCELLED
 * @param exitCode    the exit code, or null when none was observed
 * @param termination why the process stopped
 * @param digest      the digest of the action people approved, or null if the run has no request any more
 */
public record ApprovedRunFinished(
        UUID runId,
        String tenant,
        String tool,
        RunState state,
        @Nullable Integer exitCode,
        @Nullable Termination termination,
        @Nullable String digest) {}
