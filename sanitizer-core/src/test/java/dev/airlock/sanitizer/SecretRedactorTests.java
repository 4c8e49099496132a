package dev.airlock.sanitizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SecretRedactorTests {

    @Test
    void replacesExactValueWithItsName() {
        SecretRedactor redactor = SecretRedactor.of(Map.of("GITHUB_TOKEN", "ghp_abc123"));
        assertThat(redactor.redact("token=ghp_abc123 done")).isEqualTo("token=[REDACTED:GITHUB_TOKEN] done");
    }

    @Test
    void forSanitizedTextAlsoKnowsEachValueInTheFormTheSanitizerGivesIt() {
        SecretRedactor redactor = SecretRedactor.of(Map.of(
                "KEY",
                "BEGIN\r\nMIIsecret\r\nEND",
                "BOM",
                "\uFEFFtok-123456",
                "PLAIN",
                "plain-secret",
                "ODD",
                "\u200bab"));
        SecretRedactor sanitized = redactor.forSanitizedText();
        assertThat(sanitized.redact("k=BEGIN\nMIIsecret\nEND b=tok-123456 p=plain-secret"))
                .isEqualTo("k=[REDACTED:KEY] b=[REDACTED:BOM] p=[REDACTED:PLAIN]");
        // A value that was mostly invisible does not turn every "ab" into a redaction.
        assertThat(sanitized.redact("ab")).isEqualTo("ab");
        assertThat(sanitized.names()).containsExactlyInAnyOrder("KEY", "BOM", "PLAIN", "ODD");
        assertThat(SecretRedactor.of(Map.of("PLAIN", "plain-secret"))
                        .forSanitizedText()
                        .redact("plain-secret"))
                .isEqualTo("[REDACTED:PLAIN]");
    }

    @Test
    void replacesValueSplitAcrossWrites() {
        SecretRedactor redactor = SecretRedactor.of(Map.of("TOKEN", "s3cr3t-value"));
        assertThat(redactInPieces(redactor, "a s3c", "r3t-", "val", "ue b")).isEqualTo("a [REDACTED:TOKEN] b");
    }

    @Test
    void replacesEveryOccurrenceAndBackToBackOccurrences() {
        SecretRedactor redactor = SecretRedactor.of(Map.of("K", "abc"));
        assertThat(redactor.redact("abcabc xabcx abc"))
                .isEqualTo("[REDACTED:K][REDACTED:K] x[REDACTED:K]x [REDACTED:K]");
    }

    @Test
    void prefersTheLongestSecretStartingAtTheSamePlace() {
        SecretRedactor redactor = SecretRedactor.of(Map.of("SHORT", "abc", "LONG", "abcdef"));
        assertThat(redactor.redact("xabcdefx abcdx")).isEqualTo("x[REDACTED:LONG]x [REDACTED:SHORT]dx");
    }

    @Test
    void prefersTheLeftmostOfOverlappingSecrets() {
        SecretRedactor redactor = SecretRedactor.of(Map.of("INNER", "bcd", "OUTER", "abcde"));
        assertThat(redactor.redact("abcde")).isEqualTo("[REDACTED:OUTER]");
        assertThat(redactor.redact("abcdx")).isEqualTo("a[REDACTED:INNER]x");
    }

    @Test
    void findsSecretAfterAFalseStart() {
        SecretRedactor redactor = SecretRedactor.of(Map.of("K", "aab"));
        assertThat(redactor.redact("aaab")).isEqualTo("a[REDACTED:K]");
    }

    @Test
    void handlesMultibyteValues() {
        SecretRedactor redactor = SecretRedactor.of(Map.of("PASS", "pässwörd"));
        assertThat(redactInPieces(redactor, "x p\u00e4ssw", "\u00f6rd y")).isEqualTo("x [REDACTED:PASS] y");
    }

    @Test
    void passesTextThroughWithNoSecrets() {
        assertThat(SecretRedactor.none().redact("anything \u00e9")).isEqualTo("anything \u00e9");
        assertThat(SecretRedactor.of(Map.of()).names()).isEmpty();
    }

    @Test
    void rejectsBadNamesAndEmptyValues() {
        assertThatThrownBy(() -> SecretRedactor.of(Map.of("bad name", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad name");
        assertThatThrownBy(() -> SecretRedactor.of(Map.of("EMPTY", "")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EMPTY");
    }

    @Test
    void neverShowsValuesInToString() {
        assertThat(SecretRedactor.of(Map.of("TOKEN", "hunter2")).toString())
                .doesNotContain("hunter2")
                .contains("TOKEN");
    }

    @Test
    void catchesSecretHiddenWithInvisiblesOnceSanitized() {
        SecretRedactor redactor = SecretRedactor.of(Map.of("TOKEN", "hunter2"));
        String sanitized = TerminalSanitizer.sanitize("hun\u200bter\u001b[0m2".getBytes(StandardCharsets.UTF_8));
        assertThat(redactor.redact(sanitized)).isEqualTo("[REDACTED:TOKEN]");
    }

    @Test
    void redactsTheStartOfASecretThatTheStreamEndsIn() {
        SecretRedactor redactor = SecretRedactor.of(Map.of("TOKEN", "s3cr3t-value", "OTHER", "zzzzzzzz"));
        assertThat(redactor.redact("token=s3cr3t-valu")).isEqualTo("token=[REDACTED:TOKEN]");
        assertThat(redactInPieces(redactor, "token=s3c", "r3t")).isEqualTo("token=[REDACTED:TOKEN]");
        assertThat(redactor.redact("token=s3cr")).isEqualTo("token=[REDACTED:TOKEN]");
        assertThat(redactor.redact("token=s3c")).as("shorter than the minimum").isEqualTo("token=s3c");
        assertThat(redactor.redact("s3cr3t-value s3cr3t")).isEqualTo("[REDACTED:TOKEN] [REDACTED:TOKEN]");
        assertThat(redactor.redact("s3cr3t-value zzzz")).isEqualTo("[REDACTED:TOKEN] [REDACTED:OTHER]");
        assertThat(redactor.redact("s3cr3t-value s3c")).isEqualTo("[REDACTED:TOKEN] s3c");
        RedactingStream stream = redactor.stream(ByteSink.DISCARD);
        byte[] cut = "x s3cr3t-val".getBytes(StandardCharsets.UTF_8);
        stream.write(cut, 0, cut.length);
        stream.finish();
        assertThat(stream.redactions()).isEqualTo(1);
    }

    @Test
    void matchesLeftmostLongestReferenceForRandomInputsAndChunkings() {
        long baseSeed = Long.getLong("airlock.seed", 4242L);
        for (int i = 0; i < 3000; i++) {
            long seed = baseSeed + i;
            Random random = new Random(seed);
            Map<String, String> secrets = new LinkedHashMap<>();
            int count = 1 + random.nextInt(5);
            for (int s = 0; s < count; s++) {
                secrets.put("S" + s, randomText(random, 1 + random.nextInt(5)));
            }
            SecretRedactor redactor = SecretRedactor.of(secrets);
            String text = randomText(random, random.nextInt(40));
            String expected = reference(redactor, secrets, text);
            assertThat(redactor.redact(text))
                    .as("seed %d, secrets %s, text %s", seed, secrets, text)
                    .isEqualTo(expected);
            assertThat(redactRandomChunks(redactor, text, random))
                    .as("seed %d chunked", seed)
                    .isEqualTo(expected);
        }
    }

    private static String randomText(Random random, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append("abc".charAt(random.nextInt(3)));
        }
        return text.toString();
    }

    /** Leftmost-longest, non-overlapping, by brute force; duplicate values go to the first name in order. */
    private static String reference(SecretRedactor redactor, Map<String, String> secrets, String text) {
        Map<String, String> nameByValue = new LinkedHashMap<>();
        redactor.names().forEach(name -> nameByValue.putIfAbsent(secrets.get(name), name));
        StringBuilder out = new StringBuilder();
        int i = 0;
        int lastMatchEnd = 0;
        while (i < text.length()) {
            String best = null;
            for (String value : nameByValue.keySet()) {
                if (text.startsWith(value, i) && (best == null || value.length() > best.length())) {
                    best = value;
                }
            }
            if (best == null) {
                out.append(text.charAt(i++));
            } else {
                out.append("[REDACTED:").append(nameByValue.get(best)).append(']');
                i += best.length();
                lastMatchEnd = i;
            }
        }
        // The longest tail after the last match that starts a secret, if long enough, is replaced too.
        for (int length = text.length() - lastMatchEnd; length >= RedactingStream.MIN_REDACTED_TAIL; length--) {
            String tail = text.substring(text.length() - length);
            for (String value : nameByValue.keySet()) {
                if (value.length() > length && value.startsWith(tail)) {
                    out.setLength(out.length() - length);
                    return out.append("[REDACTED:")
                            .append(nameByValue.get(value))
                            .append(']')
                            .toString();
                }
            }
        }
        return out.toString();
    }

    private static String redactRandomChunks(SecretRedactor redactor, String text, Random random) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RedactingStream stream = redactor.stream(out::write);
        int i = 0;
        while (i < bytes.length) {
            int n = Math.min(bytes.length - i, random.nextInt(4));
            stream.write(bytes, i, n);
            i += n;
        }
        stream.finish();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String redactInPieces(SecretRedactor redactor, String... pieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RedactingStream stream = redactor.stream(out::write);
        for (String piece : pieces) {
            byte[] bytes = piece.getBytes(StandardCharsets.UTF_8);
            stream.write(bytes, 0, bytes.length);
        }
        stream.finish();
        return out.toString(StandardCharsets.UTF_8);
    }
}
