package dev.airlock.gateway.capture;

import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The platform threads that block on a run's process: reading a sandbox's status report and its
 * two output streams, and waiting for it to end. Such a wait on a descriptor the JDK's I/O does
 * not manage would hold a virtual thread's carrier, so each has a platform thread; the threads are
 * pooled (an idle one ends after 30 s), because starting four of them for every run cost the
 * gateway a measurable share of its CPU per run (docs/benchmarks.md). There is no bound: a run
 * never waits for another's thread. Each task runs under the name it is given, as a thread dump
 * shows it.
 */
final class BlockingThreads {

    private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            Thread.ofPlatform().name("airlock-blocking-", 0).daemon().factory());

    private BlockingThreads() {}

    /** Runs {@code task} on a pooled platform thread named {@code name} while it runs. */
    static void start(String name, Runnable task) {
        POOL.execute(() -> {
            Thread current = Thread.currentThread();
            String idle = current.getName();
            current.setName(name);
            try {
                task.run();
            } finally {
                current.setName(idle);
            }
        });
    }
}
