package dev.airlock.gateway.capture;

import dev.airlock.persistence.run.SandboxKind;
import dev.airlock.persistence.run.Termination;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What the supervisor observed of a run's process.
 *
 * @param startedAt    when the process was started (or the attempt made)
 * @param endedAt      when it was seen to end
 * @param exitCode     the exit code, only when the process exited by itself
 * @param termination  why it stopped
 * @param failure      why it could not start, for {@link Termination#SPAWN_FAILED}
 * @param sandbox      what the process was isolated by; null if none was started
 * @param stdout       standard output
 * @param stderr       standard error
 */
public record CaptureResult(
        Instant startedAt,
        Instant endedAt,
        @Nullable Integer exitCode,
        Termination termination,
        @Nullable String failure,
        @Nullable SandboxKind sandbox,
        StreamResult stdout,
        StreamResult stderr) {

    /** The result of a run whose process could not be started. */
    public static CaptureResult spawnFailed(Instant startedAt, Instant endedAt, String failure) {
        return new CaptureResult(
                startedAt,
                endedAt,
                null,
                Termination.SPAWN_FAILED,
                failure,
                null,
                StreamResult.empty(),
                StreamResult.empty());
    }
}
