package dev.airlock.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sanitizer CLI end to end: this process writes a corpus into the child's standard input
 * through a pipe and reads its standard output through another, and the same is done with
 * {@code cat} as the baseline (the ceiling of the pipes, the harness and the machine). Each round
 * runs every command once, in turn, so that a busy moment of the machine hits all of them.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.airlock.benchmarks.CliPipeBenchmark \
 *     sanitizer-core/target/sanitizer-core-0.1.0-SNAPSHOT.jar [corpus=plain] [mib=2048] [rounds=5]
 * </pre>
 *
 * Two figures per run: wall throughput from spawn to the end of output (JVM start included) and
 * throughput after the first output byte (start excluded). An empty run gives the start cost.
 */
public final class CliPipeBenchmark {

    private CliPipeBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: CliPipeBenchmark CLI_JAR [corpus=plain] [mib=2048] [rounds=5]");
            System.exit(2);
        }
        String jar = Path.of(args[0]).toAbsolutePath().toString();
        String corpus = args.length > 1 ? args[1] : "plain";
        long total = (args.length > 2 ? Long.parseLong(args[2]) : 2048) << 20;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        byte[] block = Corpora.generate(corpus, SanitizerBenchmark.CORPUS_BYTES);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

        Map<String, List<String>> commands = new LinkedHashMap<>();
        commands.put("cat", List.of("cat"));
        commands.put("cli (scalar)", List.of(java, "-jar", jar));
        commands.put("cli (vector)", List.of(java, "--add-modules", "jdk.incubator.vector", "-jar", jar));

        System.out.printf(
                "%s corpus, %d MiB per run, %d rounds, java %s%n",
                corpus, total >> 20, rounds, System.getProperty("java.version"));
        for (Map.Entry<String, List<String>> command : commands.entrySet()) {
            Measurement empty = run(command.getValue(), block, 0);
            System.out.printf("start cost of %s: %.0f ms%n", command.getKey(), empty.wallNanos / 1e6);
        }
        Map<String, List<Measurement>> results = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (Map.Entry<String, List<String>> command : commands.entrySet()) {
                Measurement m = run(command.getValue(), block, total);
                results.computeIfAbsent(command.getKey(), k -> new ArrayList<>())
                        .add(m);
                System.out.printf(
                        "round %d %-13s wall %6.0f MB/s  after first byte %6.0f MB/s  (%d bytes out)%n",
                        round, command.getKey(), m.wallMbPerSecond(total), m.steadyMbPerSecond(total), m.outputBytes);
            }
        }
        System.out.println();
        System.out.println(
                "| command | wall MB/s, median (min–max) | after first byte MB/s, median (min–max) | / cat (median wall) |");
        System.out.println("|---|---:|---:|---:|");
        double catMedian = median(results.get("cat").stream()
                .mapToDouble(m -> m.wallMbPerSecond(total))
                .toArray());
        for (Map.Entry<String, List<Measurement>> e : results.entrySet()) {
            double[] wall = e.getValue().stream()
                    .mapToDouble(m -> m.wallMbPerSecond(total))
                    .toArray();
            double[] steady = e.getValue().stream()
                    .mapToDouble(m -> m.steadyMbPerSecond(total))
                    .toArray();
            System.out.printf(
                    "| %s | %.0f (%.0f–%.0f) | %.0f (%.0f–%.0f) | %.2f |%n",
                    e.getKey(),
                    median(wall),
                    min(wall),
                    max(wall),
                    median(steady),
                    min(steady),
                    max(steady),
                    median(wall) / catMedian);
        }
    }

    record Measurement(long wallNanos, long afterFirstByteNanos, long outputBytes) {
        double wallMbPerSecond(long input) {
            return input / (wallNanos / 1e9) / 1e6;
        }

        double steadyMbPerSecond(long input) {
            return input / (afterFirstByteNanos / 1e9) / 1e6;
        }
    }

    private static Measurement run(List<String> command, byte[] block, long total) throws Exception {
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Thread feeder = Thread.ofPlatform().start(() -> {
            try (OutputStream in = process.getOutputStream()) {
                for (long written = 0; written < total; ) {
                    int n = (int) Math.min(block.length, total - written);
                    in.write(block, 0, n);
                    written += n;
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        byte[] buffer = new byte[1 << 20];
        long outputBytes = 0;
        long firstByte = 0;
        try (InputStream out = process.getInputStream()) {
            int r;
            while ((r = out.read(buffer)) >= 0) {
                if (outputBytes == 0 && r > 0) {
                    firstByte = System.nanoTime();
                }
                outputBytes += r;
            }
        }
        long end = System.nanoTime();
        feeder.join();
        if (process.waitFor() != 0) {
            throw new IllegalStateException(command + " exited with " + process.exitValue());
        }
        return new Measurement(end - start, end - (firstByte == 0 ? start : firstByte), outputBytes);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }
}
