package dev.airlock.gateway.capture;

import dev.airlock.persistence.run.SandboxKind;
import dev.airlock.persistence.run.Termination;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a process, in its sandbox, and supervises it to the end: no shell, an empty standard
 * input, a cleared environment, stdout and stderr captured separately and concurrently, the time
 * limit and the observed-bytes limit enforced by killing the whole process tree. Thread-safe; one
 * call per run.
 */
public final class ProcessSupervisor {

    private static final Logger log = LoggerFactory.getLogger(ProcessSupervisor.class);
    private static final File NO_INPUT = new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    private final Clock clock;
    private final Duration drainTimeout;
    private final Sandbox sandbox;

    public ProcessSupervisor(Clock clock, Duration drainTimeout, Sandbox sandbox) {
        this.clock = clock;
        this.drainTimeout = drainTimeout;
        this.sandbox = sandbox;
    }

    /** What this supervisor isolates processes by. */
    public SandboxKind sandbox() {
        return sandbox.kind();
    }

    /** Runs {@code spec} to its end and reports what was observed. */
    public CaptureResult run(ProcessSpec spec, Cancellation cancellation) {
        Instant startedAt = clock.instant();
        if (cancellation.requested()) {
            return new CaptureResult(startedAt, startedAt, null, Termination.CANCELLED, null, null, StreamResult.empty(),
                    StreamResult.empty());
        }
        Path scratch = null;
        try {
            Path workingDir = spec.workingDir();
            if (workingDir == null) {
                scratch = Files.createTempDirectory("airlock-run-");
                sandbox.adopt(scratch);
                workingDir = scratch;
            } else if (!Files.isDirectory(workingDir)) {
                return CaptureResult.spawnFailed(startedAt, clock.instant(), "the working directory " + workingDir
                        + " does not exist");
            }
            return supervise(spec, cancellation, workingDir, startedAt);
        } catch (IOException e) {
            return CaptureResult.spawnFailed(startedAt, clock.instant(), "cannot prepare the working directory: " + e.getMessage());
        } finally {
            if (scratch != null) {
                Sandbox.deleteTree(scratch);
            }
        }
    }

    private CaptureResult supervise(ProcessSpec spec, Cancellation cancellation, Path workingDir, Instant startedAt) {
        String marker = ProcessSpec.RUN_ID_VARIABLE + "=" + spec.runId();
        Sandbox.Launch launch;
        try {
            launch = sandbox.launch(spec, workingDir);
        } catch (Sandbox.SpawnRefused e) {
            return CaptureResult.spawnFailed(startedAt, clock.instant(), e.getMessage());
        }
        ProcessBuilder builder = new ProcessBuilder(launch.argv())
                .directory(launch.directory().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(NO_INPUT));
        builder.environment().clear();
        builder.environment().putAll(launch.environment());
        NamedPipes pipes = null;
        if (sandbox.kind() == SandboxKind.NONE) {
            try {
                pipes = NamedPipes.create(spec.runId());
            } catch (IOException e) {
                return CaptureResult.spawnFailed(startedAt, clock.instant(), "cannot prepare the output pipes: " + e.getMessage());
            }
        }
        try {
            return supervise(spec, cancellation, startedAt, marker, launch, builder, pipes);
        } finally {
            if (pipes != null) {
                pipes.close();
            }
        }
    }

    private CaptureResult supervise(ProcessSpec spec, Cancellation cancellation, Instant startedAt, String marker,
            Sandbox.Launch launch, ProcessBuilder builder, NamedPipes pipes) {
        AtomicReference<Process> started = new AtomicReference<>();
        AtomicReference<Termination> stopped = new AtomicReference<>();
        Queue<ProcessTree.Member> killed = new ConcurrentLinkedQueue<>();
        Stopper stopper = reason -> {
            Process process = started.get();
            if ((process == null || process.isAlive()) && stopped.compareAndSet(null, reason)) {
                log.info("Stopping run {} ({}): killing its process tree", spec.runId(), reason);
                if (process != null) {
                    killed.addAll(ProcessTree.kill(process.toHandle(), marker));
                }
            }
        };
        StreamCapture stdout = new StreamCapture(pipes != null ? pipes.stdoutSource() : () -> started.get().getInputStream(),
                spec.maxRetainedBytes(), spec.maxObservedBytes(), spec.redactor(), () -> stopper.stop(Termination.OUTPUT_LIMIT));
        StreamCapture stderr = new StreamCapture(pipes != null ? pipes.stderrSource() : () -> started.get().getErrorStream(),
                spec.maxRetainedBytes(), spec.maxObservedBytes(), spec.redactor(), () -> stopper.stop(Termination.OUTPUT_LIMIT));
        if (pipes != null) {
            // The captures wait on the named pipes until the JDK opens them for the child.
            builder.redirectOutput(pipes.stdout().toFile()).redirectError(pipes.stderr().toFile());
            startCaptures(spec, stdout, stderr);
        }
        Process process;
        try {
            process = Spawner.start(builder);
        } catch (IOException e) {
            if (pipes != null) {
                pipes.release();
            }
            String what = sandbox.kind() == SandboxKind.NONE ? "'" + spec.argv().get(0) + "'"
                    : "the sandbox ('" + launch.argv().get(0) + "')";
            return CaptureResult.spawnFailed(startedAt, clock.instant(), "cannot start " + what + ": " + rootMessage(e));
        }
        started.set(process);
        if (pipes == null) {
            startCaptures(spec, stdout, stderr);
        }
        // bubblewrap ends as soon as the tool does, while its init may still be taking down the
        // rest of the namespace: the run ends when that init has gone.
        List<ProcessTree.Member> sandboxInit = List.of();
        if (sandbox.kind() == SandboxKind.BUBBLEWRAP) {
            try {
                sandboxInit = ProcessTree.firstChild(process.toHandle(), KILL_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (stopped.get() != null) {
            // A stream reached its limit before the process was known here.
            killed.addAll(ProcessTree.kill(process.toHandle(), marker));
        }
        cancellation.onCancel(() -> stopper.stop(Termination.CANCELLED));

        try {
            if (!process.waitFor(spec.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                stopper.stop(Termination.TIMEOUT);
                process.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
            Instant endedAt = clock.instant();
            drain(spec, marker, stdout, stderr, killed);
            awaitGone(spec, killed);
            Termination termination = stopped.get() == null ? Termination.EXITED : stopped.get();
            Integer exitCode = termination == Termination.EXITED && !process.isAlive() ? process.exitValue() : null;
            return new CaptureResult(startedAt, endedAt, exitCode, termination, null, sandbox.kind(), stdout.seal(),
                    stderr.seal());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopper.stop(Termination.CANCELLED);
            return new CaptureResult(startedAt, clock.instant(), null, Termination.CANCELLED, null, sandbox.kind(), stdout.seal(),
                    stderr.seal());
        } finally {
            awaitGone(spec, sandboxInit);
            awaitGone(spec, ProcessTree.killMarked(marker));
        }
    }

    private static void startCaptures(ProcessSpec spec, StreamCapture stdout, StreamCapture stderr) {
        Thread.ofVirtual().name("capture-stdout-" + spec.runId()).start(stdout);
        Thread.ofVirtual().name("capture-stderr-" + spec.runId()).start(stderr);
    }

    /** Returns once what was killed has gone, so that no process of the run outlives its result. */
    private static void awaitGone(ProcessSpec spec, Collection<ProcessTree.Member> killed) {
        try {
            if (!ProcessTree.awaitGone(killed, KILL_WAIT)) {
                log.warn("Run {}: a killed process was still there after {}", spec.runId(), KILL_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits for both streams to end. A process that left a child holding a pipe open does not
     * hang the run: after the drain deadline the run's leftover processes are killed, and after
     * a second deadline the pipe is abandoned with its end unseen.
     */
    private void drain(ProcessSpec spec, String marker, StreamCapture stdout, StreamCapture stderr,
            Collection<ProcessTree.Member> killed) throws InterruptedException {
        long millis = drainTimeout.toMillis();
        if (stdout.awaitEnd(millis) && stderr.awaitEnd(millis)) {
            return;
        }
        List<ProcessTree.Member> leftovers = ProcessTree.killMarked(marker);
        killed.addAll(leftovers);
        log.info("Run {}: a stream stayed open after the process ended; killed {} leftover process(es)", spec.runId(),
                leftovers.size());
        if (stdout.awaitEnd(millis) && stderr.awaitEnd(millis)) {
            return;
        }
        log.warn("Run {}: a stream is still open; abandoning it without its end", spec.runId());
        stdout.abandon();
        stderr.abandon();
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        int detail = message.lastIndexOf("error=");
        return detail >= 0 ? message.substring(detail) : message;
    }

    @FunctionalInterface
    private interface Stopper {
        void stop(Termination reason);
    }
}
