package dev.airlock.gateway.capture;

import org.jspecify.annotations.Nullable;

/**
 * Lets another thread stop a run. Cancelling before the process starts stops it as soon as it
 * does. Thread-safe.
 */
public final class Cancellation {

    private volatile boolean requested;
    private volatile @Nullable Runnable action;

    /** Requests cancellation. */
    public void cancel() {
        requested = true;
        Runnable a = action;
        if (a != null) {
            a.run();
        }
    }

    /** Whether cancellation was requested. */
    public boolean requested() {
        return requested;
    }

    /** Registers how to stop the run (at once when it was cancelled already). */
    public void onCancel(Runnable stop) {
        action = stop;
        if (requested) {
            stop.run();
        }
    }
}
