package dev.airlock.sanitizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AuditViewTests {

    @Test
    void keepsPrintableAsciiAndEscapesEverythingElse() {
        byte[] input = {'a', ' ', '~', '\\', '\n', 0x1B, 0x7F, (byte) 0x80, (byte) 0xFF, 0x00};
        assertThat(AuditView.encode(input)).isEqualTo("a ~\\x5c\\x0a\\x1b\\x7f\\x80\\xff\\x00");
    }

    @Test
    void escapesEveryByteOutsidePrintableAscii() {
        for (int b = 0; b < 256; b++) {
            String encoded = AuditView.encode(new byte[] {(byte) b});
            boolean verbatim = b >= 0x20 && b < 0x7F && b != '\\';
            assertThat(encoded).isEqualTo(verbatim ? String.valueOf((char) b) : String.format("\\x%02x", b));
            assertThat(AuditView.decode(encoded)).containsExactly((byte) b);
        }
    }

    @Test
    void decodesAcrossChunkBoundariesInsideAnEscape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AuditView.Decoder decoder = AuditView.decoder(out::write);
        for (String piece : new String[] {"a\\", "x", "1", "b", "c\\x0", "a"}) {
            byte[] bytes = piece.getBytes(StandardCharsets.US_ASCII);
            decoder.write(bytes, 0, bytes.length);
        }
        decoder.finish();
        assertThat(out.toByteArray()).containsExactly('a', 0x1B, 'c', '\n');
    }

    @Test
    void decoderIgnoresRawLineBreaksWhichTheEncoderNeverWrites() {
        assertThat(AuditView.decode("ab\\x0a\ncd\r\n")).containsExactly('a', 'b', '\n', 'c', 'd');
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            \\q      | a backslash must start \\xNN
            \\x4     | notation ends inside \\xNN
            \\xg0    | \\x must be followed by two hex digits
            a\tb     | byte 0x09 must be written as \\x09
            """)
    void rejectsMalformedNotation(String notation, String problem) {
        assertThatThrownBy(() -> AuditView.decode(notation))
                .isInstanceOf(AuditView.MalformedNotationException.class)
                .hasMessageContaining(problem);
    }
}
