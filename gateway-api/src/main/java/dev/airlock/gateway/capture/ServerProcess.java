package dev.airlock.gateway.capture;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
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
    private final java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();

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
     * Kills it and everything it started, then removes its fresh working directory; once (whoever asks again, a
     * channel that saw it end and then the session closing it, returns at once).
     */
    public void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        String marker = ProcessSpec.RUN_ID_VARIABLE + "=" + spec.runId();
        try {
            stdin.close();
        } catch (IOException ignored) {
            // It is being killed anyway.
        }
        boolean gone = false;
        try {
            // Once it has ended it may have been reaped, and its pid be another process's: only the marker then finds
            // what is left of it.
            gone = ProcessTree.awaitGone(
                    child.isAlive() ? ProcessTree.kill(child.pid(), marker) : ProcessTree.killMarked(marker),
                    KILL_WAIT);
            child.waitFor(KILL_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeStreams.run();
        if (scratch != null) {
            if (gone) {
                Sandbox.removeWorkingDirectory(scratch);
            } else {
                log.warn(
                        "Server {}: a process may still be alive; {} stays until the next start",
                        spec.source(),
                        scratch);
            }
        }
    }

    @Override
    public void close() {
        stop();
    }
}
