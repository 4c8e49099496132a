package dev.airlock.benchmarks;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link SanitizerBenchmark} with the GC profiler and prints a Markdown table of throughput,
 * the ratios to the baselines measured in the same run, and allocation per input byte.
 *
 * <pre>java [--add-modules jdk.incubator.vector] -jar benchmarks/target/benchmarks.jar [--quick] [--no-regex] [corpus...]</pre>
 *
 * With {@code --add-modules jdk.incubator.vector} the forked benchmark JVM gets the module too, so
 * the sanitizer takes its vector path; without it, the scalar path.
 *
 * For any other JMH run, use JMH's own runner:
 * {@code java -cp benchmarks/target/benchmarks.jar org.openjdk.jmh.Main -h}.
 */
public final class BenchmarkReport {

    private BenchmarkReport() {}

    public static void main(String[] args) throws RunnerException {
        boolean quick = java.util.Arrays.asList(args).contains("--quick");
        String[] corpora =
                java.util.Arrays.stream(args).filter(a -> !a.startsWith("--")).toArray(String[]::new);
        boolean noRegex = java.util.Arrays.asList(args).contains("--no-regex");
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(SanitizerBenchmark.class.getName() + (noRegex ? "\\.(sanitizer|byteCopy)$" : "\\."))
                .addProfiler(GCProfiler.class);
        if (corpora.length > 0) {
            options.param("corpus", corpora);
        }
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
            // Replaces the annotation's arguments, so the heap settings are repeated here.
            options.jvmArgsAppend("-Xms1g", "-Xmx1g", "--add-modules", "jdk.incubator.vector");
        }
        if (quick) {
            options.warmupIterations(2)
                    .warmupTime(TimeValue.seconds(1))
                    .measurementIterations(3)
                    .measurementTime(TimeValue.seconds(1));
        }
        Collection<RunResult> results = new Runner(options.build()).run();

        Map<String, Map<String, double[]>> byCorpus = new TreeMap<>();
        for (RunResult result : results) {
            String method = result.getParams().getBenchmark();
            method = method.substring(method.lastIndexOf('.') + 1);
            String corpus = result.getParams().getParam("corpus");
            double mbPerSecond = result.getPrimaryResult().getScore() * SanitizerBenchmark.CORPUS_BYTES / 1e6;
            double error = result.getPrimaryResult().getScoreError() * SanitizerBenchmark.CORPUS_BYTES / 1e6;
            Result<?> alloc = result.getSecondaryResults().get("gc.alloc.rate.norm");
            double allocPerByte = alloc == null ? Double.NaN : alloc.getScore() / SanitizerBenchmark.CORPUS_BYTES;
            byCorpus.computeIfAbsent(corpus, c -> new TreeMap<>())
                    .put(method, new double[] {mbPerSecond, error, allocPerByte});
        }

        System.out.println();
        System.out.printf(
                "Corpora of %d MiB each, read in 64 KiB pieces; MB = 10^6 bytes of input.%n%n",
                SanitizerBenchmark.CORPUS_BYTES >> 20);
        System.out.println("| corpus | sanitizer MB/s | byte copy MB/s | regex MB/s "
                + "| sanitizer / regex | sanitizer / copy | sanitizer alloc B/byte |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (String corpus : new String[] {"plain", "colored", "hostile", "unicode"}) {
            Map<String, double[]> m = byCorpus.get(corpus);
            if (m == null) {
                continue;
            }
            double[] s = m.get("sanitizer");
            double[] c = m.get("byteCopy");
            double[] r = m.getOrDefault("regexStripper", new double[] {Double.NaN, Double.NaN, Double.NaN});
            System.out.printf(
                    "| %s | %.0f ± %.0f | %.0f | %.0f | %.1f× | %.2f | %.5f |%n",
                    corpus, s[0], s[1], c[0], r[0], s[0] / r[0], s[0] / c[0], s[2]);
        }
    }
}
