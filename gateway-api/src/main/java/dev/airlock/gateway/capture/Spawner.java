package dev.airlock.gateway.capture;

import java.io.IOException;
import java.util.Objects;
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

    private Spawner() {}

    /** A call that starts a process. */
    @FunctionalInterface
    interface Start<T> {
        T call() throws IOException, LibC.Failure;
    }

    /** Starts {@code builder}'s process on the spawner thread. */
    static Process start(ProcessBuilder builder) throws IOException {
        try {
            return call(builder::start);
        } catch (LibC.Failure e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * Runs {@code start} on the spawner thread. An interrupt while waiting does not lose a started
     * process: it is returned all the same, with the interrupt status set for the caller to act on.
     */
    static <T> T call(Start<T> start) throws IOException, LibC.Failure {
        Future<T> started = THREAD.submit(start::call);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return started.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = Objects.requireNonNull(e.getCause(), "a task that failed has its cause");
                    switch (cause) {
                        case IOException io -> throw io;
                        case LibC.Failure failure -> throw failure;
                        case RuntimeException runtime -> throw runtime;
                        case Error error -> throw error;
                        default -> throw new IOException(cause);
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
