package dev.airlock.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What a JSON body's bytes may be (RFC 8259's UTF-8), fed in chunks of every size. */
class StrictUtf8Tests {

    /** Feeds {@code bytes} in chunks of {@code chunk} bytes, then ends the body. */
    private static void feed(byte[] bytes, int chunk) throws StrictUtf8.NotUtf8 {
        StrictUtf8 check = new StrictUtf8();
        for (int offset = 0; offset < bytes.length; offset += chunk) {
            check.next(bytes, offset, Math.min(chunk, bytes.length - offset));
        }
        check.end();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"tool\":\"echo\"}",
                "{\"message\":\"café ☃ 😀 \\u0000 escaped\"}",
                " [1, 2.5e3, true, null]",
                "\"\uD7FF\uE000\uFFFD\uDBFF\uDFFF\""
            })
    void utf8JsonIsAcceptedInChunksOfEverySize(String json) throws Exception {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        for (int chunk = 1; chunk <= bytes.length; chunk++) {
            feed(bytes, chunk);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "a UTF-16LE body, 7b002200, NUL byte",
        "a UTF-16BE body, 007b0022, NUL byte",
        "a UTF-32LE body, 7b000000, NUL byte",
        "a NUL inside a string, 7b22610022, NUL byte",
        "the UTF-8 byte order mark, efbbbf7b7d, byte order mark",
        "the UTF-16BE byte order mark, feff007b, byte order mark",
        "the UTF-16LE byte order mark, fffe7b00, byte order mark",
        "an overlong slash, 7b22c0af227d, not UTF-8",
        "an overlong quote in three bytes, 7b22e080a2227d, not UTF-8",
        "a surrogate in UTF-8, 7b22eda080227d, not UTF-8",
        "a code point past U+10FFFF, 7b22f4908080227d, not UTF-8",
        "a lone continuation byte, 7b2280227d, not UTF-8",
        "Latin-1 e acute, 7b22e9227d, not UTF-8",
        "a sequence cut off at the end, 7b22e282, ends within"
    })
    void anythingElseIsRefusedInChunksOfEverySize(String what, String hex, String why) {
        byte[] bytes = HexFormat.of().parseHex(hex);
        for (int chunk = 1; chunk <= bytes.length; chunk++) {
            int size = chunk;
            assertThatThrownBy(() -> feed(bytes, size))
                    .as(what + " in chunks of " + size)
                    .isInstanceOf(StrictUtf8.NotUtf8.class)
                    .hasMessageContaining(why);
        }
    }

    @org.junit.jupiter.api.Test
    void theEndMayBeSeenMoreThanOnce() throws Exception {
        StrictUtf8 check = new StrictUtf8();
        check.next("{}".getBytes(StandardCharsets.US_ASCII), 0, 2);
        check.end();
        check.end();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            application/json                          | true
            application/json; charset=utf-8          | true
            application/json;charset="UTF-8"         | true
            application/json; CHARSET=utf8          | true
            application/json; charset=utf-16        | false
            application/json; charset=IBM037        | false
            application/json; charset=utf-8; charset=utf-16 | false
            application/json; charset=              | false
            """)
    void aContentTypeNamesUtf8OrNoCharset(String type, boolean utf8) {
        assertThat(StrictUtf8.namesUtf8OrNone(type)).as(type).isEqualTo(utf8);
    }

    @org.junit.jupiter.api.Test
    void randomBytesAreRefusedExactlyWhenTheJdksStrictDecoderRefusesThemOrTheyHoldAnyNul() throws Exception {
        Random random = new Random(20261203);
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[1 + random.nextInt(12)];
            random.nextBytes(bytes);
            if (random.nextBoolean()) {
                // Mostly ASCII with a few high bytes, so that valid sequences come up as well.
                for (int j = 0; j < bytes.length; j++) {
                    bytes[j] = random.nextInt(4) == 0 ? bytes[j] : (byte) (0x20 + random.nextInt(0x5f));
                }
            }
            boolean valid;
            try {
                // The JDK's decoder, strict by default here; no NUL; no first byte of a byte order mark.
                valid = StandardCharsets.UTF_8
                                .newDecoder()
                                .decode(java.nio.ByteBuffer.wrap(bytes))
                                .chars()
                                .noneMatch(c -> c == 0)
                        && (bytes[0] & 0xff) < 0xEF;
            } catch (java.nio.charset.CharacterCodingException e) {
                valid = false;
            }
            int chunk = 1 + random.nextInt(bytes.length);
            boolean accepted;
            try {
                feed(bytes, chunk);
                accepted = true;
            } catch (StrictUtf8.NotUtf8 e) {
                accepted = false;
            }
            assertThat(accepted)
                    .as(HexFormat.of().formatHex(bytes) + " in chunks of " + chunk)
                    .isEqualTo(valid);
        }
    }
}
