package dev.airlock.sanitizer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The strict audit view: printable ASCII except the backslash stands for itself, every other
 * byte (LF and the backslash included) is written {@code \xNN} with lower-case hex digits.
 *
 * <p>The encoding is byte-by-byte, so it is chunk-invariant: encoding two pieces and
 * concatenating equals encoding the whole. The {@linkplain #decoder(ByteSink) decoder} restores
 * the exact bytes; it ignores raw line breaks (LF, CR), which the encoder never writes, so that
 * notation can be wrapped across lines, and rejects anything else that is not notation.
 */
public final class AuditView {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final int BUFFER = 16 * 1024;

    private AuditView() {}

    /** The audit view of {@code bytes}. */
    public static String encode(byte[] bytes) {
        return encode(bytes, 0, bytes.length);
    }

    /** The audit view of {@code length} bytes of {@code bytes} from {@code offset}. */
    public static String encode(byte[] bytes, int offset, int length) {
        StringBuilder text = new StringBuilder(length + 16);
        Encoder encoder = encoder((b, off, len) -> text.append(new String(b, off, len, StandardCharsets.US_ASCII)));
        encoder.write(bytes, offset, length);
        encoder.finish();
        return text.toString();
    }

    /**
     * The bytes that {@code notation} stands for.
     *
     * @throws MalformedNotationException when {@code notation} is not audit-view notation
     */
    public static byte[] decode(CharSequence notation) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(notation.length());
        Decoder decoder = decoder(bytes::write);
        byte[] ascii = notation.toString().getBytes(StandardCharsets.UTF_8);
        decoder.write(ascii, 0, ascii.length);
        decoder.finish();
        return bytes.toByteArray();
    }

    /** Whether {@code b} stands for itself in the audit view. */
    public static boolean isVerbatim(int b) {
        return b >= 0x20 && b < 0x7F && b != '\\';
    }

    /** A streaming encoder writing notation to {@code sink}. */
    public static Encoder encoder(ByteSink sink) {
        return new Encoder(sink);
    }

    /** A streaming decoder writing the decoded bytes to {@code sink}. */
    public static Decoder decoder(ByteSink sink) {
        return new Decoder(sink);
    }

    /** Encodes a byte stream into audit-view notation. One stream, one thread. */
    public static final class Encoder {

        private final ByteSink sink;
        private final byte[] out = new byte[BUFFER];

        private Encoder(ByteSink sink) {
            this.sink = Objects.requireNonNull(sink, "sink");
        }

        /** Encodes {@code length} bytes of {@code bytes} from {@code offset}. */
        public void write(byte[] bytes, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, bytes.length);
            int n = 0;
            for (int i = offset, end = offset + length; i < end; i++) {
                if (n > BUFFER - 4) {
                    sink.write(out, 0, n);
                    n = 0;
                }
                int b = bytes[i] & 0xFF;
                if (isVerbatim(b)) {
                    out[n++] = (byte) b;
                } else {
                    out[n++] = '\\';
                    out[n++] = 'x';
                    out[n++] = HEX[b >>> 4];
                    out[n++] = HEX[b & 0xF];
                }
            }
            if (n > 0) {
                sink.write(out, 0, n);
            }
        }

        /** Ends the stream. The encoder holds nothing back, so this only marks the end. */
        public void finish() {
            // Stateless: nothing is held back between writes.
        }
    }

    /** Decodes audit-view notation back into the exact bytes. One stream, one thread. */
    public static final class Decoder {

        private final ByteSink sink;
        private final byte[] out = new byte[BUFFER];
        /** 0: plain; 1: after backslash; 2: after {@code \x}; 3: after one hex digit. */
        private int step;

        private int high;
        private long position;

        private Decoder(ByteSink sink) {
            this.sink = Objects.requireNonNull(sink, "sink");
        }

        /**
         * Decodes {@code length} bytes of notation from {@code offset}.
         *
         * @throws MalformedNotationException at the first byte that is not notation
         */
        public void write(byte[] notation, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, notation.length);
            int n = 0;
            try {
                for (int i = offset, end = offset + length; i < end; i++, position++) {
                    if (n == BUFFER) {
                        sink.write(out, 0, n);
                        n = 0;
                    }
                    int c = notation[i] & 0xFF;
                    switch (step) {
                        case 0 -> {
                            if (c == '\\') {
                                step = 1;
                            } else if (isVerbatim(c)) {
                                out[n++] = (byte) c;
                            } else if (c != '\n' && c != '\r') {
                                throw new MalformedNotationException(
                                        position, String.format("byte 0x%02x must be written as \\x%02x", c, c));
                            }
                        }
                        case 1 -> {
                            if (c != 'x') {
                                throw new MalformedNotationException(position, "a backslash must start \\xNN");
                            }
                            step = 2;
                        }
                        case 2 -> {
                            high = hexValue(c);
                            step = 3;
                        }
                        default -> {
                            out[n++] = (byte) (high << 4 | hexValue(c));
                            step = 0;
                        }
                    }
                }
            } finally {
                if (n > 0) {
                    sink.write(out, 0, n);
                }
            }
        }

        /**
         * Ends the notation.
         *
         * @throws MalformedNotationException when it ends inside an escape
         */
        public void finish() {
            if (step != 0) {
                throw new MalformedNotationException(position, "notation ends inside \\xNN");
            }
        }

        private int hexValue(int c) {
            if (c >= '0' && c <= '9') {
                return c - '0';
            }
            if (c >= 'a' && c <= 'f') {
                return c - 'a' + 10;
            }
            if (c >= 'A' && c <= 'F') {
                return c - 'A' + 10;
            }
            throw new MalformedNotationException(position, "\\x must be followed by two hex digits");
        }
    }

    /** Thrown when input given to the decoder is not audit-view notation. */
    public static final class MalformedNotationException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        private final long offset;

        MalformedNotationException(long offset, String problem) {
            super("malformed audit-view notation at byte " + offset + ": " + problem);
            this.offset = offset;
        }

        /** Offset in the notation of the offending byte (or of its end). */
        public long offset() {
            return offset;
        }
    }
}
