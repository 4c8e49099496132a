import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What a run's blocking threads cost the gateway's JVM (docs/benchmarks.md, "Pooled supervisor
 * threads"): a sandboxed run has three (its two output streams and bubblewrap's reaper), each
 * blocking on a descriptor. Measured here in one process, alternating: three platform threads
 * started per run (as the supervisor did) against three tasks handed to a pool of idle platform
 * threads named for the task while it runs (as {@code BlockingThreads} does), by the process's CPU
 * time, and printed with the ratio.
 *
 * <p>Usage: {@code java benchmarks/load/ThreadStartCost.java [runs per round, default 10000]}
 */
public class ThreadStartCost {

    private static final int THREADS_PER_RUN = 3;

    private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            Thread.ofPlatform().name("blocking-", 0).daemon().factory());

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void started() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(THREADS_PER_RUN);
        for (int i = 0; i < THREADS_PER_RUN; i++) {
            Thread.ofPlatform().daemon().name("capture-" + i).start(done::countDown);
        }
        done.await();
    }

    private static void pooled() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(THREADS_PER_RUN);
        for (int i = 0; i < THREADS_PER_RUN; i++) {
            String name = "capture-" + i;
            POOL.execute(() -> {
                Thread current = Thread.currentThread();
                String idle = current.getName();
                current.setName(name);
                try {
                    done.countDown();
                } finally {
                    current.setName(idle);
                }
            });
        }
        done.await();
    }

    private static double microsPerRun(boolean pool, int runs) throws InterruptedException {
        for (int i = 0; i < 2_000; i++) {
            if (pool) pooled(); else started();
        }
        long before = cpuNanos();
        for (int i = 0; i < runs; i++) {
            if (pool) pooled(); else started();
        }
        return (cpuNanos() - before) / 1e3 / runs;
    }

    public static void main(String[] args) throws InterruptedException {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        for (int round = 1; round <= 3; round++) {
            double started = microsPerRun(false, runs);
            double pooled = microsPerRun(true, runs);
            System.out.printf(
                    "RESULT round=%d threads-per-run=%d started=%.1fus pooled=%.1fus ratio=%.3f%n",
                    round, THREADS_PER_RUN, started, pooled, pooled / started);
        }
    }
}
