package dev.airlock.sanitizer;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Coverage-guided fuzz targets. Under plain {@code ./mvnw verify} they run in regression mode on
 * the checked-in seed corpus ({@code SanitizerFuzzTestsInputs/}); with {@code JAZZER_FUZZ=1} they
 * fuzz (see docs/testing.md).
 */
class SanitizerFuzzTests {

    private static final SecretRedactor REDACTOR =
            SecretRedactor.of(Map.of("A", "abab", "B", "ba", "C", "\u00e9\u00e9"));

    @FuzzTest(maxDuration = "60s")
    void sanitizerOutputIsInertAndChunkInvariant(FuzzedDataProvider data) {
        boolean overwrite = data.consumeBoolean();
        int chunk = data.consumeInt(1, 64);
        byte[] input = data.consumeRemainingAsBytes();
        SanitizerPolicy policy = overwrite ? new SanitizerPolicy(CrPolicy.OVERWRITE, 16) : SanitizerPolicy.defaults();

        String whole = Feed.whole(input, policy);
        SanitizerPropertyTests.assertInert(whole.getBytes(StandardCharsets.UTF_8));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TerminalSanitizer chunked = TerminalSanitizer.create(policy, out::write);
        for (int i = 0; i < input.length; i += chunk) {
            chunked.write(input, i, Math.min(chunk, input.length - i));
        }
        chunked.finish();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(whole);
    }

    @FuzzTest(maxDuration = "60s")
    void auditViewRoundTrips(byte[] input) {
        String encoded = AuditView.encode(input);
        assertThat(AuditView.decode(encoded)).isEqualTo(input);
        try {
            AuditView.decode(new String(input, StandardCharsets.ISO_8859_1));
        } catch (AuditView.MalformedNotationException expected) {
            // Arbitrary bytes are mostly not notation; the decoder must say so, not fail otherwise.
        }
    }

    @FuzzTest(maxDuration = "60s")
    void redactorNeverLetsAValueThrough(FuzzedDataProvider data) {
        int chunk = data.consumeInt(1, 8);
        String text = data.consumeRemainingAsString();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RedactingStream stream = REDACTOR.stream(out::write);
        for (int i = 0; i < bytes.length; i += chunk) {
            stream.write(bytes, i, Math.min(chunk, bytes.length - i));
        }
        stream.finish();
        String redacted = out.toString(StandardCharsets.UTF_8);
        assertThat(redacted).isEqualTo(REDACTOR.redact(text));
        String withoutMarkers = redacted.replace("[REDACTED:A]", "\u0000")
                .replace("[REDACTED:B]", "\u0000")
                .replace("[REDACTED:C]", "\u0000");
        assertThat(withoutMarkers).doesNotContain("abab", "ba", "\u00e9\u00e9");
    }
}
