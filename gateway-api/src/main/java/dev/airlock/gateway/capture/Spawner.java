package dev.airlock.gateway.capture;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Starts every child process from one platform thread that lives as long as the gateway.
 * bubblewrap's {@code --die-with-parent} kills the sandbox when the thread that started it ends
 * ({@code PR_SET_PDEATHSIG} follows the parent thread, not the process), and virtual threads'
 * carrier threads come and go; started from here, a sandbox dies only with the gateway.
 */
final class Spawner {

    private static final ExecutorService THREAD = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("airlock-spawner").daemon().factory());

    private Spawner() {
    }

    /**
     * Starts {@code builder}'s process. An interrupt while waiting does not lose a started process:
     * it is returned all the same, with the interrupt status set for the caller to act on.
     */
    static Process start(ProcessBuilder builder) throws IOException {
        Future<Process> started = THREAD.submit(builder::start);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return started.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof IOException io) {
                        throw io;
                    }
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IOException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
