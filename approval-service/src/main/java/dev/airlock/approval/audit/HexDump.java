package dev.airlock.approval.audit;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The classic hex dump: 16 bytes a line, the offset in hex, the bytes in hex, and an ASCII column
 * where every byte outside printable ASCII (0x20 to 0x7E) is a dot. Its output is plain ASCII, so
 * it shows hostile bytes without any of them taking effect.
 */
public final class HexDump {

    /** Bytes per line. */
    public static final int WIDTH = 16;

    private HexDump() {}

    /**
     * One line.
     *
     * @param offset the offset of its first byte, 8 hex digits (more for streams past 4 GiB)
     * @param hex    the bytes in hex, separated by spaces, with an extra space after the eighth
     * @param ascii  the bytes as ASCII, non-printables as '.'
     */
    public record Line(String offset, String hex, String ascii) {

        @Override
        public String toString() {
            return offset + "  " + String.format("%-49s", hex) + " |" + ascii + "|";
        }
    }

    /** The lines of {@code bytes}, which start at {@code offset} of their stream. */
    public static List<Line> lines(byte[] bytes, long offset) {
        HexFormat hex = HexFormat.of();
        List<Line> lines = new ArrayList<>((bytes.length + WIDTH - 1) / WIDTH);
        for (int start = 0; start < bytes.length; start += WIDTH) {
            int end = Math.min(bytes.length, start + WIDTH);
            StringBuilder h = new StringBuilder(49);
            StringBuilder a = new StringBuilder(WIDTH);
            for (int i = start; i < end; i++) {
                if (i > start) {
                    h.append(i - start == 8 ? "  " : " ");
                }
                h.append(hex.toHexDigits(bytes[i]));
                int b = bytes[i] & 0xFF;
                a.append(b >= 0x20 && b <= 0x7E ? (char) b : '.');
            }
            lines.add(new Line(String.format("%08x", offset + start), h.toString(), a.toString()));
        }
        return lines;
    }
}
