package dev.airlock.gateway.run;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A periodic task on a platform thread of its own, for work that a run in flight needs until the
 * drain has ended: the application's scheduler runs every job on one thread (where a job waiting for
 * a lock holds back all the others) and stops its tasks when the context starts closing, before the
 * drain. Its owner closes it when destroyed, which is after the drain.
 */
final class DedicatedSchedule implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DedicatedSchedule.class);

    private final ScheduledExecutorService thread;

    private DedicatedSchedule(String name, Duration interval, Runnable task) {
        thread = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name(name).daemon().factory());
        thread.scheduleWithFixedDelay(
                () -> {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        // An escaping exception would end the schedule for good.
                        log.warn("{}: {}", name, e.toString());
                    }
                },
                0,
                interval.toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /** Runs {@code task} now and then every {@code interval} after each run ends, on a thread named {@code name}. */
    static DedicatedSchedule every(String name, Duration interval, Runnable task) {
        return new DedicatedSchedule(name, interval, task);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
