package dev.airlock.sanitizer;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The clean-run scan of {@link TerminalSanitizer} with the Vector API, one register of bytes
 * (64 on AVX-512) per step. Loaded only when the JVM has {@code jdk.incubator.vector} (see
 * {@link FastPath#VECTOR_AVAILABLE}); the scalar scan in {@code TerminalSanitizer} gives the same
 * result everywhere.
 */
final class VectorScan {

    private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;

    /** Bytes per step. */
    static final int LANES = SPECIES.length();

    private VectorScan() {}

    /** The length of the run of clean bytes (0x20–0x7e, TAB, LF) in {@code in[i..end)}. */
    static int cleanLength(byte[] in, int i, int end) {
        int k = i;
        for (int last = end - LANES; k <= last; k += LANES) {
            ByteVector v = ByteVector.fromArray(SPECIES, in, k);
            // special(v), written out: see copyClean.
            long bits = v.lt((byte) 0x20)
                    .andNot(v.eq((byte) 0x0A).or(v.eq((byte) 0x09)))
                    .or(v.eq((byte) 0x7F))
                    .toLong();
            if (bits != 0) {
                return k - i + Long.numberOfTrailingZeros(bits);
            }
        }
        for (; k < end; k++) {
            byte b = in[k];
            if (b < 0x20 ? b != 0x0A && b != 0x09 : b == 0x7F) {
                break;
            }
        }
        return k - i;
    }

    /**
     * Copies the run of clean bytes (0x20–0x7e, TAB, LF) that starts at {@code in[i]} to
     * {@code out[n]}, at most {@code max} bytes, and returns its length. Writes nothing past
     * {@code out[n + max - 1]}.
     */
    static int copyClean(byte[] in, int i, byte[] out, int n, int max) {
        int k = 0;
        for (int last = max - LANES; k <= last; k += LANES) {
            ByteVector v = ByteVector.fromArray(SPECIES, in, i + k);
            v.intoArray(out, n + k);
            // The test for bytes that are not clean text (below 0x20 but TAB and LF, DEL, 0x80 and
            // up, which are negative) is written out here and in cleanLength rather than called:
            // where C2 found a call site cold it did not inline the helper, and vectors and masks
            // passed to a method that is not inlined are boxed, the operations falling back to
            // arrays (0.015 B allocated per input byte on the Unicode corpus, which reaches
            // cleanLength only after each flush).
            long bits = v.lt((byte) 0x20)
                    .andNot(v.eq((byte) 0x0A).or(v.eq((byte) 0x09)))
                    .or(v.eq((byte) 0x7F))
                    .toLong();
            if (bits != 0) {
                return k + Long.numberOfTrailingZeros(bits);
            }
        }
        for (; k < max; k++) {
            byte b = in[i + k];
            if (b < 0x20 ? b != 0x0A && b != 0x09 : b == 0x7F) {
                return k;
            }
            out[n + k] = b;
        }
        return k;
    }
}
