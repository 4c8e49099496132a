package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.Sha256;
import dev.airlock.gateway.support.ToolInputs;
import dev.airlock.sanitizer.AuditView;
import dev.airlock.sanitizer.Fence;
import dev.airlock.sanitizer.RemovalReport;
import dev.airlock.sanitizer.SanitizerPolicy;
import dev.airlock.sanitizer.TerminalSanitizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;

/**
 * A tool that prints each case of the hostile terminal-output corpus: the envelope's text is the
 * sanitizer's output, inert, fenced, and the counts and digest describe the bytes printed.
 */
@AirlockIntegrationTest
class HostileOutputIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    static Path files = ToolInputs.directory("hostile-output");

    static List<String[]> corpus() throws IOException {
        try (InputStream in = HostileOutputIntegrationTests.class.getResourceAsStream("/terminal-output.tsv")) {
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
    void envelopeCarriesTheSanitizedTextAndTheFactsOfTheRawBytes(String name, String input, String expected) throws IOException {
        byte[] raw = AuditView.decode(input);
        Path file = files.resolve(name + ".bin");
        Files.write(file, raw);

        JsonNode run = new AgentApi(mvc).run(AgentApi.ACME, "hostile", "{\"file\":\"" + file + "\"}").body();
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        JsonNode stdout = run.path("stdout");
        String text = stdout.path("text").asString();

        assertThat(AuditView.encode(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(expected);
        TerminalSanitizer.Result reference = TerminalSanitizer.sanitize(raw, SanitizerPolicy.defaults());
        assertThat(text).isEqualTo(reference.text());
        assertThat(text.codePoints().filter(cp -> cp == 0x1B || cp >= 0x80 && cp < 0xA0 || cp == 0x200B || cp == 0x202E
                || cp >= 0xE0000 && cp <= 0xE007F)).isEmpty();

        String fenced = stdout.path("fenced").asString();
        List<String> lines = fenced.lines().toList();
        assertThat(lines.getFirst()).isEqualTo(Fence.openLine("hostile stdout"));
        assertThat(lines.getLast()).isEqualTo(Fence.CLOSE_LINE);
        assertThat(lines.subList(1, lines.size() - 1)).allSatisfy(l -> assertThat(l).startsWith("| "));

        RemovalReport report = reference.report();
        JsonNode removed = stdout.path("removed");
        assertThat(removed.path("csi").asLong()).isEqualTo(report.csi());
        assertThat(removed.path("osc").asLong()).isEqualTo(report.osc());
        assertThat(removed.path("c0").asLong()).isEqualTo(report.c0());
        assertThat(removed.path("c1").asLong()).isEqualTo(report.c1());
        assertThat(removed.path("invisible").asLong()).isEqualTo(report.invisible());
        assertThat(removed.path("invalidUtf8").asLong()).isEqualTo(report.invalidUtf8());

        assertThat(stdout.path("sha256").asString()).isEqualTo(Sha256.hex(raw));
        assertThat(stdout.path("observedBytes").asLong()).isEqualTo(raw.length);
        assertThat(stdout.path("retainedBytes").asLong()).isEqualTo(raw.length);
    }
}
