package dev.airlock.benchmarks;

import dev.airlock.sanitizer.TerminalSanitizer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * A noise-resistant companion to {@link SanitizerBenchmark} for a shared, loaded machine: passes
 * of the sanitizer and the byte copy alternate, each timed by this thread's CPU time (not wall
 * time, which other processes' load stretches), and the median of each is reported with the ratio
 * between them. Two versions of the sanitizer are compared by {@link SanitizerJarComparison}.
 *
 * <pre>
 * java [--add-modules jdk.incubator.vector] -cp benchmarks/target/benchmarks.jar \
 *     dev.airlock.benchmarks.SanitizerPairedBenchmark [passes=60] [corpus...]
 * </pre>
 */
public final class SanitizerPairedBenchmark {

    private static final int READ = 64 * 1024;

    private SanitizerPairedBenchmark() {}

    public static void main(String[] args) {
        int passes = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        String[] corpora = args.length > 1
                ? Arrays.copyOfRange(args, 1, args.length)
                : new String[] {"plain", "colored", "hostile", "unicode"};
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf(
                "%d passes per corpus after %d warm-up passes; MB/s of input per CPU second, median"
                        + " (interquartile range)%n%n",
                passes, passes / 2);
        System.out.println("| corpus | sanitizer MB/s | byte copy MB/s | sanitizer / copy |");
        System.out.println("|---|---:|---:|---:|");
        SanitizerBenchmark.CountingSink sink = new SanitizerBenchmark.CountingSink();
        byte[] buffer = new byte[16 * 1024];
        for (String corpus : corpora) {
            byte[] input = Corpora.generate(corpus, SanitizerBenchmark.CORPUS_BYTES);
            Runnable current = () -> {
                TerminalSanitizer s = TerminalSanitizer.create(sink);
                for (int i = 0; i < input.length; i += READ) {
                    s.write(input, i, Math.min(READ, input.length - i));
                }
                s.finish();
            };
            Runnable copy = () -> {
                for (int i = 0; i < input.length; i += READ) {
                    int end = Math.min(i + READ, input.length);
                    for (int j = i; j < end; j += buffer.length) {
                        int n = Math.min(buffer.length, end - j);
                        System.arraycopy(input, j, buffer, 0, n);
                        sink.write(buffer, 0, n);
                    }
                }
            };
            Runnable[] runs = {current, copy};
            double[][] mbps = new double[runs.length][passes];
            for (int pass = -passes / 2; pass < passes; pass++) {
                for (int r = 0; r < runs.length; r++) {
                    long start = threads.getCurrentThreadCpuTime();
                    runs[r].run();
                    long cpu = threads.getCurrentThreadCpuTime() - start;
                    if (pass >= 0) {
                        mbps[r][pass] = input.length / (cpu / 1e9) / 1e6;
                    }
                }
            }
            double[] m = new double[runs.length];
            String[] cells = new String[runs.length];
            for (int r = 0; r < runs.length; r++) {
                Arrays.sort(mbps[r]);
                m[r] = mbps[r][passes / 2];
                cells[r] = String.format("%.0f (%.0f–%.0f)", m[r], mbps[r][passes / 4], mbps[r][passes * 3 / 4]);
            }
            System.out.printf("| %s | %s | %s | %.2f |%n", corpus, cells[0], cells[1], m[0] / m[1]);
        }
        System.out.println("\n(checksum " + sink.total + ")");
    }
}
