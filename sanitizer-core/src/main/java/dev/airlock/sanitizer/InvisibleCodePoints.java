package dev.airlock.sanitizer;

/**
 * The code points the sanitizer removes as invisible, as a compact table of closed ranges.
 *
 * <p>The set is the union of general category Cf, Default_Ignorable_Code_Point, the variation
 * selectors U+FE00–FE0F and U+E0100–E01EF, the tag block U+E0000–E007F and U+2060–206F, taken
 * from Unicode 16.0 (ICU4J 77.1), minus ZERO WIDTH JOINER U+200D, which the sanitizer keeps
 * between two Extended_Pictographic characters. {@code InvisibleCodePointsTests} recomputes the
 * set from ICU4J and fails when this table differs; {@code InvisibleCodePointsGenerator} (test
 * sources) prints a new table when the Unicode version moves.
 */
final class InvisibleCodePoints {

    static final int ZERO_WIDTH_JOINER = 0x200D;

    /** Pairs of first and last code point, sorted, disjoint. */
    private static final int[] RANGES = {
        0x00AD, 0x00AD,
        0x034F, 0x034F,
        0x0600, 0x0605,
        0x061C, 0x061C,
        0x06DD, 0x06DD,
        0x070F, 0x070F,
        0x0890, 0x0891,
        0x08E2, 0x08E2,
        0x115F, 0x1160,
        0x17B4, 0x17B5,
        0x180B, 0x180F,
        0x200B, 0x200C,
        0x200E, 0x200F,
        0x202A, 0x202E,
        0x2060, 0x206F,
        0x3164, 0x3164,
        0xFE00, 0xFE0F,
        0xFEFF, 0xFEFF,
        0xFFA0, 0xFFA0,
        0xFFF0, 0xFFFB,
        0x110BD, 0x110BD,
        0x110CD, 0x110CD,
        0x13430, 0x1343F,
        0x1BCA0, 0x1BCA3,
        0x1D173, 0x1D17A,
        0xE0000, 0xE0FFF,
    };

    /** The same set for the Basic Multilingual Plane as a bitmap (8 KiB), one load per lookup. */
    private static final long[] BMP = bitmap(0xFFFF);

    private InvisibleCodePoints() {}

    /** Whether {@code codePoint} is removed as invisible (ZWJ is not: it is decided in context). */
    static boolean isInvisible(int codePoint) {
        if (codePoint <= 0xFFFF) {
            return (BMP[codePoint >>> 6] & (1L << codePoint)) != 0;
        }
        return inRanges(codePoint);
    }

    /** A bitmap of the code points {@code 0..last} that are in the table, ready for more bits. */
    static long[] bitmap(int last) {
        long[] bits = new long[(last >>> 6) + 1];
        for (int r = 0; r < RANGES.length; r += 2) {
            for (int cp = RANGES[r]; cp <= Math.min(RANGES[r + 1], last); cp++) {
                bits[cp >>> 6] |= 1L << cp;
            }
        }
        return bits;
    }

    private static boolean inRanges(int codePoint) {
        int low = 0;
        int high = (RANGES.length >>> 1) - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (codePoint < RANGES[mid << 1]) {
                high = mid - 1;
            } else if (codePoint > RANGES[(mid << 1) + 1]) {
                low = mid + 1;
            } else {
                return true;
            }
        }
        return false;
    }
}
