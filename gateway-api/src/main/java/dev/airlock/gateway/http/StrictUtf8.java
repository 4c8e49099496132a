package dev.airlock.gateway.http;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Checks a JSON body, as its bytes arrive, for what RFC 8259 requires of JSON sent between
 * systems: UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF, no sequence cut off at
 * the end), without a byte order mark, and without a NUL byte (which JSON never holds unescaped,
 * and by which Jackson would take the body for UTF-16 or UTF-32). A proxy in front that reads the
 * body as UTF-8 then reads what Airlock reads. Not thread-safe: one per body.
 */
public final class StrictUtf8 {

    private final CharsetDecoder decoder = StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private final CharBuffer scratch = CharBuffer.allocate(1024);
    /** The start of a sequence cut off by the end of the last chunk (at most three bytes). */
    private final byte[] pending = new byte[3];

    private int pendingLength;
    private long seen;
    private boolean ended;

    StrictUtf8() {}

    /**
     * Checks the next {@code length} bytes of the body.
     *
     * @throws NotUtf8 when they break a rule
     */
    void next(byte[] bytes, int offset, int length) throws NotUtf8 {
        for (int i = 0; i < length; i++) {
            if (bytes[offset + i] == 0) {
                throw new NotUtf8("it holds a NUL byte (a UTF-16 or UTF-32 body, or a control character JSON"
                        + " allows only escaped)");
            }
        }
        if (seen == 0 && length > 0 && (bytes[offset] & 0xff) >= 0xEF) {
            // EF BB BF, FE FF or FF FE: no JSON text starts with a character from U+F000 up.
            throw new NotUtf8("it starts with a byte order mark");
        }
        seen += length;
        ByteBuffer in;
        if (pendingLength > 0) {
            in = ByteBuffer.allocate(pendingLength + length);
            in.put(pending, 0, pendingLength).put(bytes, offset, length).flip();
        } else {
            in = ByteBuffer.wrap(bytes, offset, length);
        }
        decode(in, false);
        pendingLength = in.remaining();
        in.get(pending, 0, pendingLength);
    }

    /**
     * The body has ended.
     *
     * @throws NotUtf8 when it ended within a sequence
     */
    void end() throws NotUtf8 {
        // A reader may see the end more than once (Jackson reads past a short document again): checked once.
        if (ended) {
            return;
        }
        ended = true;
        decode(ByteBuffer.wrap(pending, 0, pendingLength), true);
        pendingLength = 0;
    }

    /**
     * Whether {@code contentType} names no charset, or UTF-8 (however cased or quoted); a type that
     * names another, or UTF-8 and another, is not JSON text as RFC 8259 has it.
     */
    public static boolean namesUtf8OrNone(@Nullable String contentType) {
        if (contentType == null) {
            return true;
        }
        String[] parts = contentType.split(";");
        for (int i = 1; i < parts.length; i++) {
            String[] parameter = parts[i].split("=", 2);
            if (parameter[0].strip().equalsIgnoreCase("charset")) {
                String value = parameter.length < 2 ? "" : parameter[1].strip();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                if (!value.equalsIgnoreCase("utf-8") && !value.equalsIgnoreCase("utf8")) {
                    return false;
                }
            }
        }
        return true;
    }

    private void decode(ByteBuffer in, boolean endOfInput) throws NotUtf8 {
        while (true) {
            scratch.clear();
            CoderResult result = decoder.decode(in, scratch, endOfInput);
            if (result.isError()) {
                // What is left at the end is only ever the start of a sequence the last chunk cut off.
                throw new NotUtf8(
                        endOfInput
                                ? "it ends within a UTF-8 sequence"
                                : "it is not UTF-8 after byte " + (seen - in.remaining()));
            }
            if (result.isUnderflow()) {
                if (endOfInput) {
                    scratch.clear();
                    if (decoder.flush(scratch).isError()) {
                        throw new NotUtf8("it ends within a UTF-8 sequence");
                    }
                }
                return;
            }
        }
    }

    /** Thrown to whatever reads a body that breaks a rule, ending its parsing (answered 400). */
    public static final class NotUtf8 extends CharacterCodingException {

        private static final long serialVersionUID = 1L;
        private final String why;

        NotUtf8(String why) {
            this.why = why;
        }

        @Override
        public String getMessage() {
            return "The request body is not JSON text as RFC 8259 requires (UTF-8, without a byte order mark): " + why
                    + ".";
        }
    }
}
