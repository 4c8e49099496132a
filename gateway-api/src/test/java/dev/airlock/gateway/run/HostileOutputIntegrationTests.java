package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.ToolInputs;
import dev.airlock.kernel.digest.Sha256;
import dev.airlock.sanitizer.AuditView;
import dev.airlock.sanitizer.Fence;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;

/**
 * A tool that prints each case of the hostile terminal-output corpus: the envelope's text is the
 * corpus's expected text, inert, fenced, and every removal count is the one reasoned from the
 * input in {@code terminal-output-removals.tsv}, never the sanitizer's own report.
 */
@AirlockIntegrationTest
class HostileOutputIntegrationTests {

    /** Every count the envelope reports, in its order. */
    private static final List<String> COUNTERS = List.of(
            "csi",
            "osc",
            "c0",
            "c1",
            "invisible",
            "invalidUtf8",
            "esc",
            "dcs",
            "sosPmApc",
            "del",
            "cr",
            "bs",
            "unterminatedStrings",
            "stringPayloadBytes");

    @Autowired
    MockMvcTester mvc;

    static Path files = ToolInputs.directory("hostile-output");

    static List<Arguments> corpus() throws IOException {
        Map<String, Map<String, Long>> removals = new LinkedHashMap<>();
        for (String[] row : rows("/terminal-output-removals.tsv")) {
            Map<String, Long> counts = new LinkedHashMap<>();
            COUNTERS.forEach(counter -> counts.put(counter, 0L));
            if (!row[1].equals("-")) {
                for (String count : row[1].split(" ")) {
                    String[] pair = count.split("=");
                    assertThat(COUNTERS).as("counter in %s", row[0]).contains(pair[0]);
                    counts.put(pair[0], Long.parseLong(pair[1]));
                }
            }
            removals.put(row[0], counts);
        }
        List<Arguments> cases = new ArrayList<>();
        for (String[] row : rows("/terminal-output.tsv")) {
            assertThat(removals).as("every corpus case has its reasoned counts").containsKey(row[0]);
            cases.add(Arguments.of(row[0], row[1], row[2], removals.remove(row[0])));
        }
        assertThat(removals).as("counts for cases the corpus does not have").isEmpty();
        return cases;
    }

    private static List<String[]> rows(String resource) throws IOException {
        try (InputStream in = HostileOutputIntegrationTests.class.getResourceAsStream(resource)) {
            List<String[]> rows = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    rows.add(line.split("\t", -1));
                }
            }
            return rows;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void envelopeCarriesTheSanitizedTextAndTheFactsOfTheRawBytes(
            String name, String input, String expected, Map<String, Long> removed) throws IOException {
        byte[] raw = AuditView.decode(input);
        Path file = files.resolve(name + ".bin");
        Files.write(file, raw);

        JsonNode run = new AgentApi(mvc)
                .run(AgentApi.ACME, "hostile", "{\"file\":\"" + file + "\"}")
                .body();
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        JsonNode stdout = run.path("stdout");
        String text = stdout.path("text").asString();

        assertThat(AuditView.encode(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(expected);
        assertThat(text.codePoints()
                        .filter(cp -> cp == 0x1B
                                || cp >= 0x80 && cp < 0xA0
                                || cp == 0x200B
                                || cp == 0x202E
                                || cp >= 0xE0000 && cp <= 0xE007F))
                .isEmpty();

        String fenced = stdout.path("fenced").asString();
        List<String> lines = fenced.lines().toList();
        assertThat(lines.getFirst()).isEqualTo(Fence.openLine("hostile stdout"));
        assertThat(lines.getLast()).isEqualTo(Fence.CLOSE_LINE);
        assertThat(lines.subList(1, lines.size() - 1))
                .allSatisfy(l -> assertThat(l).startsWith("| "));

        Map<String, Long> reported = new LinkedHashMap<>();
        stdout.path("removed")
                .properties()
                .forEach(e -> reported.put(e.getKey(), e.getValue().asLong()));
        assertThat(reported).containsExactlyEntriesOf(removed);
        assertThat(stdout.path("redactions").asLong()).isZero();

        assertThat(stdout.path("sha256").asString()).isEqualTo(Sha256.hex(raw));
        assertThat(stdout.path("observedBytes").asLong()).isEqualTo(raw.length);
        assertThat(stdout.path("retainedBytes").asLong()).isEqualTo(raw.length);
        assertThat(stdout.path("truncated").asBoolean()).isFalse();
    }
}
