package dev.airlock.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Two builds of sanitizer-core compared in one process, each jar in a class loader of its own (so
 * that neither shares the other's JIT profile), passes alternated and timed by this thread's CPU
 * time; the median of the per-pass ratios B / A is reported with its interquartile range. Meant for
 * experiments: keep a copy of the jar before a change and compare it with the jar after.
 * Two copies of the same jar differ by up to ±6 % here (different JIT decisions per loader), so a
 * change is only read as real when it holds over several runs.
 *
 * <pre>
 * java [--add-modules jdk.incubator.vector] -cp benchmarks/target/benchmarks.jar \
 *     dev.airlock.benchmarks.SanitizerJarComparison A.jar B.jar [passes=40] [corpus...]
 * </pre>
 */
public final class SanitizerJarComparison {

    private static final int READ = 64 * 1024;
    private static long total;

    private SanitizerJarComparison() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: SanitizerJarComparison A.jar B.jar [passes=40] [corpus...]");
            System.exit(2);
        }
        int passes = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        String[] corpora = args.length > 3
                ? Arrays.copyOfRange(args, 3, args.length)
                : new String[] {"plain", "colored", "hostile", "unicode"};
        Build[] builds = {Build.load(Path.of(args[0])), Build.load(Path.of(args[1]))};
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf(
                "%d passes per corpus after %d warm-up passes; MB/s per CPU second, median%n%n", passes, passes / 2);
        System.out.println("| corpus | A MB/s | B MB/s | B / A, median of per-pass ratios (interquartile range) |");
        System.out.println("|---|---:|---:|---:|");
        for (String corpus : corpora) {
            byte[] input = Corpora.generate(corpus, SanitizerBenchmark.CORPUS_BYTES);
            double[][] mbps = new double[2][passes];
            double[] ratio = new double[passes];
            for (int pass = -passes / 2; pass < passes; pass++) {
                for (int k = 0; k < 2; k++) {
                    int b = (pass & 1) == 0 ? k : 1 - k;
                    long start = threads.getCurrentThreadCpuTime();
                    builds[b].run(input);
                    long cpu = threads.getCurrentThreadCpuTime() - start;
                    if (pass >= 0) {
                        mbps[b][pass] = input.length / (cpu / 1e9) / 1e6;
                    }
                }
                if (pass >= 0) {
                    ratio[pass] = mbps[1][pass] / mbps[0][pass];
                }
            }
            for (double[] m : mbps) {
                Arrays.sort(m);
            }
            Arrays.sort(ratio);
            System.out.printf(
                    "| %s | %.0f | %.0f | %.3f (%.3f–%.3f) |%n",
                    corpus,
                    mbps[0][passes / 2],
                    mbps[1][passes / 2],
                    ratio[passes / 2],
                    ratio[passes / 4],
                    ratio[passes * 3 / 4]);
        }
        System.out.println("\n(checksum " + total + ")");
    }

    /** One jar's TerminalSanitizer, reached by reflection; the sink is called once per 16 KiB of output. */
    private record Build(Method create, Method write, Method finish, Object sink) {

        static Build load(Path jar) throws Exception {
            ClassLoader loader =
                    new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            Class<?> sanitizer = Class.forName("dev.airlock.sanitizer.TerminalSanitizer", true, loader);
            Class<?> sinkType = Class.forName("dev.airlock.sanitizer.ByteSink", true, loader);
            Object sink = Proxy.newProxyInstance(
                    loader, new Class<?>[] {sinkType}, (proxy, method, a) -> switch (method.getName()) {
                        case "write" -> {
                            total += (Integer) a[2];
                            yield null;
                        }
                        case "hashCode" -> 0;
                        case "equals" -> proxy == a[0];
                        default -> "sink";
                    });
            return new Build(
                    sanitizer.getMethod("create", sinkType),
                    sanitizer.getMethod("write", byte[].class, int.class, int.class),
                    sanitizer.getMethod("finish"),
                    sink);
        }

        void run(byte[] input) throws Exception {
            Object s = create.invoke(null, sink);
            for (int i = 0; i < input.length; i += READ) {
                write.invoke(s, input, i, Math.min(READ, input.length - i));
            }
            finish.invoke(s);
        }
    }
}
