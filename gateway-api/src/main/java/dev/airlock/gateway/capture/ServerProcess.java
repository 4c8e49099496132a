package dev.airlock.gateway.capture;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A long-lived process spoken to over its standard input and output (a stdio MCP server), started
 * in the same sandbox as a tool's run by {@link ProcessSupervisor#startServer}. Its processes
 * carry {@code AIRLOCK_RUN_ID=<its id>}, so {@link #stop()} finds every one of them.
 */
public final class ServerProcess implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServerProcess.class);
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    private final ProcessSpec spec;
    private final Child child;
    private final OutputStream stdin;
    private final InputStream stdout;
    private final InputStream stderr;
    private final @Nullable Path scratch;
    private final Runnable closeStreams;
    /** Guarded by this: a stop has seen every process gone. */
    private boolean finished;

    ServerProcess(
            ProcessSpec spec,
            Child child,
            OutputStream stdin,
            InputStream stdout,
            InputStream stderr,
            @Nullable Path scratch,
            Runnable closeStreams) {
        this.spec = spec;
        this.child = child;
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
        this.scratch = scratch;
        this.closeStreams = closeStreams;
    }

    /** What it reads requests from. */
    public OutputStream stdin() {
        return stdin;
    }

    /** What it answers on. */
    public InputStream stdout() {
        return stdout;
    }

    /** What it logs to. */
    public InputStream stderr() {
        return stderr;
    }

    /** Whether it still runs. */
    public boolean isAlive() {
        return child.isAlive();
    }

    /**
     * Kills it and everything it started, then removes its fresh working directory. Whoever asks while another stop
     * is under way waits for it; once a stop has seen every process gone, asking again does nothing. An interrupt
     * does not cut it short (a stop cut short would leave the working directory and the cgroup behind); the thread's
     * interrupt is kept for its caller.
     */
    public void stop() {
        java.util.concurrent.atomic.AtomicBoolean interrupted =
                new java.util.concurrent.atomic.AtomicBoolean(Thread.interrupted());
        try {
            synchronized (this) {
                if (!finished) {
                    finished = stopNow(interrupted);
                }
            }
        } finally {
            if (interrupted.get()) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** One stop: true once every process is gone (and the working directory removed). */
    private boolean stopNow(java.util.concurrent.atomic.AtomicBoolean interrupted) {
        String marker = ProcessSpec.RUN_ID_VARIABLE + "=" + spec.runId();
        try {
            stdin.close();
        } catch (IOException ignored) {
            // It is being killed anyway.
        }
        // Once it has ended it may have been reaped, and its pid be another process's: only the marker then finds
        // what is left of it.
        List<ProcessTree.Member> killed =
                child.isAlive() ? ProcessTree.kill(child.pid(), marker) : ProcessTree.killMarked(marker);
        boolean gone = uninterrupted(() -> ProcessTree.awaitGone(killed, KILL_WAIT), interrupted);
        uninterrupted(() -> child.waitFor(KILL_WAIT.toMillis()), interrupted);
        closeStreams.run();
        if (scratch != null) {
            if (gone) {
                Sandbox.removeWorkingDirectory(scratch);
            } else {
                log.warn(
                        "Server {}: a process may still be alive; {} stays until it is stopped again or the next start",
                        spec.source(),
                        scratch);
            }
        }
        return gone;
    }

    /**
     * A wait that an interrupt arriving meanwhile does not end: it is begun again, at most three times, and the
     * interrupt noted in {@code interrupted} for {@link #stop} to restore.
     */
    private static boolean uninterrupted(Wait wait, java.util.concurrent.atomic.AtomicBoolean interrupted) {
        for (int tries = 0; tries < 3; tries++) {
            try {
                return wait.await();
            } catch (InterruptedException e) {
                // Asked to stop while stopping: the stop goes on.
                interrupted.set(true);
            }
        }
        return false;
    }

    @FunctionalInterface
    private interface Wait {
        boolean await() throws InterruptedException;
    }

    @Override
    public void close() {
        stop();
    }
}
