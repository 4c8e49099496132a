package dev.airlock.approval.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The hex dump, line by line: exact input to exact output. */
class HexDumpTests {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            # name         | input (hex)                              | offset | expected line
            empty prefix   | 41                                       | 0      | "00000000  41                                                |A|"
            eight bytes    | 4142434445464748                         | 16     | "00000010  41 42 43 44 45 46 47 48                           |ABCDEFGH|"
            nine bytes     | 414243444546474849                       | 0      | "00000000  41 42 43 44 45 46 47 48  49                       |ABCDEFGHI|"
            full line      | 000102037f80ff1b5b33316d7e20215c7c2e     | 0      | "00000000  00 01 02 03 7f 80 ff 1b  5b 33 31 6d 7e 20 21 5c  |........[31m~ !\\|"
            past 4 GiB     | 7a                                       | 4294967296 | "100000000  7a                                                |z|"
            """)
    void formatsALine(String name, String hex, long offset, String expected) {
        byte[] bytes = java.util.HexFormat.of().parseHex(hex);
        assertThat(HexDump.lines(bytes, offset).getFirst().toString()).as(name).isEqualTo(expected);
    }

    @Test
    void splitsIntoLinesOfSixteenWithRunningOffsets() {
        byte[] bytes = "0123456789abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);
        List<HexDump.Line> lines = HexDump.lines(bytes, 32);
        assertThat(lines).extracting(HexDump.Line::offset).containsExactly("00000020", "00000030", "00000040");
        assertThat(lines)
                .extracting(HexDump.Line::ascii)
                .containsExactly("0123456789abcdef", "ghijklmnopqrstuv", "wxyz");
        assertThat(HexDump.lines(new byte[0], 0)).isEmpty();
    }

    @Test
    void everyByteValueBecomesPrintableAscii() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        for (HexDump.Line line : HexDump.lines(all, 0)) {
            assertThat(line.toString().chars()).allMatch(c -> c >= 0x20 && c <= 0x7e);
        }
    }
}
