import java.lang.management.ManagementFactory;
import java.util.concurrent.*;

public class ThreadCost {
    static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), Thread.ofPlatform().name("blocking-", 0).daemon().factory());
    static long cpu() { return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime(); }
    static void fresh(int n) throws Exception {
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) Thread.ofPlatform().daemon().name("capture-" + i).start(done::countDown);
        done.await();
    }
    static void pooled(int n) throws Exception {
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            String name = "capture-" + i;
            POOL.execute(() -> { Thread t = Thread.currentThread(); String idle = t.getName(); t.setName(name); try { done.countDown(); } finally { t.setName(idle); } });
        }
        done.await();
    }
    public static void main(String[] a) throws Exception {
        int iters = Integer.parseInt(a.length > 0 ? a[0] : "20000");
        for (int round = 0; round < 3; round++) {
            for (String mode : new String[] {"fresh", "pooled"}) {
                for (int i = 0; i < 2000; i++) { if (mode.equals("fresh")) fresh(3); else pooled(3); }
                long c0 = cpu(), w0 = System.nanoTime();
                for (int i = 0; i < iters; i++) { if (mode.equals("fresh")) fresh(3); else pooled(3); }
                long c1 = cpu(), w1 = System.nanoTime();
                System.out.printf("round %d %-6s: %.1f us CPU per run (3 threads), %.1f us wall%n", round, mode, (c1 - c0) / 1e3 / iters, (w1 - w0) / 1e3 / iters);
            }
        }
    }
}
