package dev.airlock.sanitizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of the hostile terminal-output corpus ({@code terminal-output.tsv}, in audit-view
 * notation), fed whole, byte by byte and in random chunks.
 */
class TerminalOutputCorpusTests {

    static List<Arguments> corpus() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        for (String[] row : CorpusFile.rows()) {
            cases.add(Arguments.of(row[0], row[1], row[2]));
        }
        return cases;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void sanitizesWholeInput(String name, String input, String expected) {
        String text = Feed.whole(AuditView.decode(input), SanitizerPolicy.defaults());
        assertThat(AuditView.encode(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void sanitizesInputFedByteByByte(String name, String input, String expected) {
        String text = Feed.byteByByte(AuditView.decode(input), SanitizerPolicy.defaults());
        assertThat(AuditView.encode(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void sanitizesInputFedInRandomChunks(String name, String input, String expected) {
        Random random = new Random(name.hashCode());
        byte[] bytes = AuditView.decode(input);
        for (int round = 0; round < 50; round++) {
            String text = Feed.randomChunks(bytes, SanitizerPolicy.defaults(), random, 1 + round % 7);
            assertThat(AuditView.encode(text.getBytes(StandardCharsets.UTF_8)))
                    .as("round %d", round)
                    .isEqualTo(expected);
        }
    }

    /** Reads the corpus file: tab-separated name, input, expected, why; '#' starts a comment. */
    static final class CorpusFile {

        static List<String[]> rows() throws IOException {
            try (InputStream in = TerminalOutputCorpusTests.class.getResourceAsStream("terminal-output.tsv")) {
                String content = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
                List<String[]> rows = new ArrayList<>();
                for (String line : content.split("\n")) {
                    if (line.isBlank() || line.startsWith("#")) {
                        continue;
                    }
                    String[] fields = line.split("\t", -1);
                    if (fields.length < 3) {
                        throw new IllegalStateException("corpus line with fewer than 3 fields: " + line);
                    }
                    rows.add(fields);
                }
                return rows;
            }
        }
    }
}
