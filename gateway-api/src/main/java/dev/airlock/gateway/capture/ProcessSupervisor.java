package dev.airlock.gateway.capture;

import dev.airlock.persistence.run.Termination;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a process and supervises it to the end: no shell, an empty standard input, a cleared
 * environment, stdout and stderr captured separately and concurrently, the time limit and the
 * observed-bytes limit enforced by killing the whole process tree. Thread-safe; one call per run.
 */
public final class ProcessSupervisor {

    private static final Logger log = LoggerFactory.getLogger(ProcessSupervisor.class);
    private static final File NO_INPUT = new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    private final Clock clock;
    private final Duration drainTimeout;

    public ProcessSupervisor(Clock clock, Duration drainTimeout) {
        this.clock = clock;
        this.drainTimeout = drainTimeout;
    }

    /** Runs {@code spec} to its end and reports what was observed. */
    public CaptureResult run(ProcessSpec spec, Cancellation cancellation) {
        Instant startedAt = clock.instant();
        if (cancellation.requested()) {
            return new CaptureResult(startedAt, startedAt, null, Termination.CANCELLED, null, StreamResult.empty(),
                    StreamResult.empty());
        }
        Path scratch = null;
        try {
            Path workingDir = spec.workingDir();
            if (workingDir == null) {
                scratch = Files.createTempDirectory("airlock-run-");
                workingDir = scratch;
            }
            return supervise(spec, cancellation, workingDir, startedAt);
        } catch (IOException e) {
            return CaptureResult.spawnFailed(startedAt, clock.instant(), "cannot prepare the working directory: " + e.getMessage());
        } finally {
            if (scratch != null) {
                deleteQuietly(scratch);
            }
        }
    }

    private CaptureResult supervise(ProcessSpec spec, Cancellation cancellation, Path workingDir, Instant startedAt) {
        String marker = ProcessSpec.RUN_ID_VARIABLE + "=" + spec.runId();
        ProcessBuilder builder = new ProcessBuilder(spec.argv())
                .directory(workingDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(NO_INPUT));
        builder.environment().clear();
        builder.environment().putAll(spec.environment());
        builder.environment().put(ProcessSpec.RUN_ID_VARIABLE, spec.runId().toString());

        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return CaptureResult.spawnFailed(startedAt, clock.instant(), "cannot start '" + spec.argv().get(0) + "': "
                    + rootMessage(e));
        }
        AtomicReference<Termination> stopped = new AtomicReference<>();
        Stopper stopper = reason -> {
            if (process.isAlive() && stopped.compareAndSet(null, reason)) {
                log.info("Stopping run {} ({}): killing its process tree", spec.runId(), reason);
                ProcessTree.kill(process.toHandle(), marker);
            }
        };
        StreamCapture stdout = new StreamCapture(process.getInputStream(), spec.maxRetainedBytes(), spec.maxObservedBytes(),
                spec.redactor(), () -> stopper.stop(Termination.OUTPUT_LIMIT));
        StreamCapture stderr = new StreamCapture(process.getErrorStream(), spec.maxRetainedBytes(), spec.maxObservedBytes(),
                spec.redactor(), () -> stopper.stop(Termination.OUTPUT_LIMIT));
        Thread.ofVirtual().name("capture-stdout-" + spec.runId()).start(stdout);
        Thread.ofVirtual().name("capture-stderr-" + spec.runId()).start(stderr);
        cancellation.onCancel(() -> stopper.stop(Termination.CANCELLED));

        try {
            if (!process.waitFor(spec.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                stopper.stop(Termination.TIMEOUT);
                process.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
            Instant endedAt = clock.instant();
            drain(spec, marker, stdout, stderr);
            Termination termination = stopped.get() == null ? Termination.EXITED : stopped.get();
            Integer exitCode = termination == Termination.EXITED && !process.isAlive() ? process.exitValue() : null;
            return new CaptureResult(startedAt, endedAt, exitCode, termination, null, stdout.seal(), stderr.seal());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopper.stop(Termination.CANCELLED);
            return new CaptureResult(startedAt, clock.instant(), null, Termination.CANCELLED, null, stdout.seal(),
                    stderr.seal());
        } finally {
            ProcessTree.killMarked(marker);
        }
    }

    /**
     * Waits for both streams to end. A process that left a child holding a pipe open does not
     * hang the run: after the drain deadline the run's leftover processes are killed, and after
     * a second deadline the pipe is abandoned with its end unseen.
     */
    private void drain(ProcessSpec spec, String marker, StreamCapture stdout, StreamCapture stderr)
            throws InterruptedException {
        long millis = drainTimeout.toMillis();
        if (stdout.awaitEnd(millis) && stderr.awaitEnd(millis)) {
            return;
        }
        int killed = ProcessTree.killMarked(marker);
        log.info("Run {}: a stream stayed open after the process ended; killed {} leftover process(es)", spec.runId(), killed);
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

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            log.warn("Could not remove the scratch directory {}: {}", dir, e.getMessage());
        }
    }

    @FunctionalInterface
    private interface Stopper {
        void stop(Termination reason);
    }
}
