package dev.airlock.benchmarks;

import dev.airlock.sanitizer.ByteSink;
import dev.airlock.sanitizer.TerminalSanitizer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of the streaming sanitizer over each corpus, next to two baselines in the same run: a
 * byte-copy loop through the same chunking (the ceiling) and the common regex stripper (the
 * ansi-regex pattern applied with {@code replaceAll} on the decoded text). One operation processes
 * the whole corpus in 64 KiB reads, as the gateway and the CLI read. To compare two versions of the
 * sanitizer, build both jars and use {@link SanitizerJarComparison}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class SanitizerBenchmark {

    /** Bytes per corpus; one operation processes all of them. */
    public static final int CORPUS_BYTES = 8 * 1024 * 1024;

    private static final int READ = 64 * 1024;

    /** The pattern of the ansi-regex package (v6), the usual way terminal output is "stripped". */
    static final Pattern ANSI_REGEX =
            Pattern.compile("[\\u001B\\u009B][\\[\\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\\d/#&.:=?%@~_]+)*"
                    + "|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d/#&.:=?%@~_]*)*)?\\u0007)"
                    + "|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PR-TZcf-nq-uy=><~]))");

    @Param({"plain", "colored", "hostile", "unicode"})
    public String corpus;

    private byte[] input;
    private final CountingSink sink = new CountingSink();
    private final byte[] copyBuffer = new byte[16 * 1024];

    @Setup(Level.Trial)
    public void generate() {
        input = Corpora.generate(corpus, CORPUS_BYTES);
    }

    @Benchmark
    public long sanitizer() {
        TerminalSanitizer sanitizer = TerminalSanitizer.create(sink);
        for (int i = 0; i < input.length; i += READ) {
            sanitizer.write(input, i, Math.min(READ, input.length - i));
        }
        sanitizer.finish();
        return sink.total;
    }

    @Benchmark
    public long byteCopy() {
        byte[] buffer = copyBuffer;
        for (int i = 0; i < input.length; i += READ) {
            int end = Math.min(i + READ, input.length);
            for (int j = i; j < end; j += buffer.length) {
                int n = Math.min(buffer.length, end - j);
                System.arraycopy(input, j, buffer, 0, n);
                sink.write(buffer, 0, n);
            }
        }
        return sink.total;
    }

    @Benchmark
    public int regexStripper() {
        String text = new String(input, StandardCharsets.UTF_8);
        return ANSI_REGEX.matcher(text).replaceAll("").getBytes(StandardCharsets.UTF_8).length;
    }

    /** Consumes output the way a real sink would touch it, without keeping it. */
    static final class CountingSink implements ByteSink {
        long total;

        @Override
        public void write(byte[] bytes, int offset, int length) {
            total += length + bytes[offset + length - 1];
        }
    }
}
