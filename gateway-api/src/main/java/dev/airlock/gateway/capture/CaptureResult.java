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
 * @param stderr       standard error (empty for a call)
 * @param call         for a call to an upstream: what was sent and observed; null for a process
 * @param action       the digest of the approved action checked before it ran; null for a run without approval
 */
public record CaptureResult(
        Instant startedAt,
        Instant endedAt,
        @Nullable Integer exitCode,
        Termination termination,
        @Nullable String failure,
        @Nullable SandboxKind sandbox,
        StreamResult stdout,
        StreamResult stderr,
        @Nullable CallObservation call,
        @Nullable String action) {

    /** What was observed of a process or a call, before the action it ran is known to the caller. */
    public CaptureResult(
            Instant startedAt,
            Instant endedAt,
            @Nullable Integer exitCode,
            Termination termination,
            @Nullable String failure,
            @Nullable SandboxKind sandbox,
            StreamResult stdout,
            StreamResult stderr,
            @Nullable CallObservation call) {
        this(startedAt, endedAt, exitCode, termination, failure, sandbox, stdout, stderr, call, null);
    }

    /**
     * This result with the digest of the approved action that was checked before it ran, recorded
     * in the audit chain so that evidence can show the action that ran was the approved one.
     */
    public CaptureResult withAction(@Nullable String digest) {
        return new CaptureResult(
                startedAt, endedAt, exitCode, termination, failure, sandbox, stdout, stderr, call, digest);
    }

    /** What the supervisor observed of a process. */
    public CaptureResult(
            Instant startedAt,
            Instant endedAt,
            @Nullable Integer exitCode,
            Termination termination,
            @Nullable String failure,
            @Nullable SandboxKind sandbox,
            StreamResult stdout,
            StreamResult stderr) {
        this(startedAt, endedAt, exitCode, termination, failure, sandbox, stdout, stderr, null);
    }

    /**
     * The result of a call to an upstream that was not made: nothing was sent.
     *
     * @param call what the call would have been, with why it was not made as its reason
     */
    public static CaptureResult callRefused(Instant at, CallFacts call) {
        return new CaptureResult(
                at, at, null, Termination.REFUSED, null, null, StreamResult.empty(), StreamResult.empty(), call);
    }

    /**
     * The result of a call of an upstream MCP server's tool that was not made: nothing was sent.
     *
     * @param call what the call would have been, with why it was not made as its reason
     */
    public static CaptureResult mcpRefused(Instant at, McpFacts call) {
        return new CaptureResult(
                at, at, null, Termination.REFUSED, null, null, StreamResult.empty(), StreamResult.empty(), call);
    }

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
