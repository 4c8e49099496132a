package dev.airlock.sanitizer;

import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Streaming sanitizer that turns untrusted terminal output into inert UTF-8 text.
 *
 * <p>Feed raw bytes with {@link #write(byte[], int, int)} in chunks of any size and call
 * {@link #finish()} once at the end; the sanitized text goes to the {@link ByteSink} given at
 * creation. The output for any split of the input equals the output for the whole input, and
 * memory stays bounded whatever the input.
 *
 * <p>The rules, in order: bytes are decoded as UTF-8 first (each maximal invalid subpart becomes
 * one U+FFFD, so a stray byte 0x80–0x9f is invalid text, never a control); escape sequences,
 * CSI and string controls (OSC, DCS, SOS, PM, APC, introduced by ESC or by their C1 code point)
 * are removed whole, string payloads skipped in place up to BEL or ST; CAN and SUB abort a
 * sequence; an ESC or C1 control inside a sequence ends it and starts the next; C0 controls
 * inside an escape or control sequence act as they do outside it; TAB and LF are kept, CR and BS
 * follow the {@link CrPolicy}, other C0 controls and DEL are dropped; invisible code points are
 * removed, U+2028 and U+2029 become LF, and ZERO WIDTH JOINER is kept only between two
 * Extended_Pictographic characters.
 *
 * <p>An instance is for one stream and one thread; it is cheap to create.
 */
public final class TerminalSanitizer {

    private static final int GROUND = 0;
    private static final int ESCAPE = 1;
    private static final int ESCAPE_INTERMEDIATE = 2;
    private static final int CSI = 3;
    private static final int STRING = 4;

    /** Stands for an invalid UTF-8 subpart in the code point stream. */
    private static final int INVALID = -1;

    private static final int ESC = 0x1B;
    private static final int BEL = 0x07;
    private static final int BS = 0x08;
    private static final int TAB = 0x09;
    private static final int LF = 0x0A;
    private static final int CR = 0x0D;
    private static final int CAN = 0x18;
    private static final int SUB = 0x1A;
    private static final int DEL = 0x7F;

    private static final int OUT_CAPACITY = 16 * 1024;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LOW_SEVEN = 0x7F7F7F7F7F7F7F7FL;
    private static final long HIGH_BITS = 0x8080808080808080L;

    /** Out-buffer room kept free by the fast path: a 4-byte write and a margin. */
    private static final int OUT_SLACK = 256;

    /** A clean run at least this long, met with an empty out buffer, goes to the sink from the input. */
    private static final int DIRECT_RUN = 512;

    /**
     * BMP code points the ground fast path leaves to the state machine: C1 controls, invisibles,
     * the joiner and the line and paragraph separators.
     */
    private static final long[] SLOW_BMP = slowCodePoints();

    /**
     * For the first two bytes {@code b0 | b1 << 8} of a multibyte UTF-8 character: 0 when the fast
     * path leaves it to the state machine (an invalid pair, or a 2-byte character that needs a
     * decision), else its length, plus {@link #CHECK} when the 64 (3-byte) or 4096 (4-byte) code
     * points that start with this pair include one that needs a decision.
     */
    private static final byte[] LEAD_PAIRS = leadPairs();

    private static final int CHECK = 8;
    /** In {@link #LEAD_PAIRS}: one or two clean ASCII bytes (text between multibyte characters). */
    private static final int ASCII = 16;
    /** Clean ASCII pairs after which {@link #multibyteRun} hands a long ASCII run back to the scan. */
    private static final int ASCII_STREAK = 8;
    /** Per length: the bits of the third and fourth bytes that must read {@code 10xxxxxx}. */
    private static final int[] CONTINUATION_MASK = {0, 0, 0, 0xC00000, 0xC0C00000};

    private static final int[] CONTINUATION_BITS = {0, 0, 0, 0x800000, 0x80800000};

    private final ByteSink sink;
    private final OverwriteLine line;
    private final FastPath fastPath;
    private final byte[] out = new byte[OUT_CAPACITY];
    private int outLength;

    private int state = GROUND;
    /** Whether the current ESC ended a control string, so that a following {@code \} is its ST. */
    private boolean escapeEndsString;

    private int utf8Needed;
    private int utf8Seen;
    private int utf8CodePoint;
    private int utf8Lower = 0x80;
    private int utf8Upper = 0xBF;

    private boolean pendingCr;
    private boolean pendingJoiner;
    private int lastCodePoint = LF;
    private boolean finished;

    private long esc;
    private long csi;
    private long osc;
    private long dcs;
    private long sosPmApc;
    private long c0;
    private long c1;
    private long del;
    private long cr;
    private long bs;
    private long invisible;
    private long invalidUtf8;
    private long unterminatedStrings;
    private long stringPayloadBytes;
    private long inputBytes;
    private long outputBytes;

    private TerminalSanitizer(SanitizerPolicy policy, ByteSink sink, FastPath fastPath) {
        this.sink = Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(policy, "policy");
        this.line = policy.crPolicy() == CrPolicy.OVERWRITE ? new OverwriteLine(policy.maxLineCodePoints()) : null;
        if (fastPath == FastPath.VECTOR && !FastPath.VECTOR_AVAILABLE) {
            throw new IllegalStateException("the Vector API is not available in this JVM");
        }
        this.fastPath = fastPath;
    }

    /** A new stream that writes sanitized text to {@code sink}. */
    public static TerminalSanitizer create(SanitizerPolicy policy, ByteSink sink) {
        return new TerminalSanitizer(policy, sink, FastPath.best());
    }

    /** A new stream with the {@linkplain SanitizerPolicy#defaults() default policy}. */
    public static TerminalSanitizer create(ByteSink sink) {
        return new TerminalSanitizer(SanitizerPolicy.defaults(), sink, FastPath.best());
    }

    /** A new stream with the given fast path, for tests that compare the paths. */
    static TerminalSanitizer create(SanitizerPolicy policy, ByteSink sink, FastPath fastPath) {
        return new TerminalSanitizer(policy, sink, fastPath);
    }

    /** Sanitizes a whole input at once. */
    public static Result sanitize(byte[] input, SanitizerPolicy policy) {
        ByteArrayOutputStream text = new ByteArrayOutputStream(input.length);
        TerminalSanitizer sanitizer = create(policy, text::write);
        sanitizer.write(input, 0, input.length);
        sanitizer.finish();
        return new Result(text.toString(StandardCharsets.UTF_8), sanitizer.report());
    }

    /** Sanitizes a whole input at once with the default policy and returns the text. */
    public static String sanitize(byte[] input) {
        return sanitize(input, SanitizerPolicy.defaults()).text();
    }

    /**
     * The sanitized text of a whole input and what was removed from it.
     *
     * @param text   the inert text
     * @param report what was removed
     */
    public record Result(String text, RemovalReport report) {}

    /** Feeds all of {@code input}. */
    public void write(byte[] input) {
        write(input, 0, input.length);
    }

    /**
     * Feeds {@code length} bytes of {@code input} from {@code offset}. Sanitized text reaches the
     * sink before this method returns, except what depends on bytes not yet seen (an incomplete
     * UTF-8 character, a CR that may precede LF, a joiner, the current line under
     * {@link CrPolicy#OVERWRITE}).
     *
     * @throws IllegalStateException after {@link #finish()}
     */
    public void write(byte[] input, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, input.length);
        if (finished) {
            throw new IllegalStateException("write after finish");
        }
        inputBytes += length;
        int i = offset;
        final int end = offset + length;
        while (i < end) {
            if (utf8Needed == 0) {
                if (state == GROUND) {
                    if (line == null && !pendingCr && !pendingJoiner && fastPath != FastPath.NONE) {
                        i = ground(input, i, end);
                        if (i == end) {
                            break;
                        }
                    }
                } else if (state == STRING) {
                    int payloadEnd = skipPayload(input, i, end);
                    stringPayloadBytes += payloadEnd - i;
                    i = payloadEnd;
                    if (i == end) {
                        break;
                    }
                } else if (state == CSI) {
                    i = skipParameters(input, i, end);
                    if (i == end) {
                        break;
                    }
                }
            }
            int b = input[i++] & 0xFF;
            if (utf8Needed == 0) {
                if (b < 0x80) {
                    onCodePoint(b, 1);
                } else if (b >= 0xC2 && b <= 0xDF) {
                    startSequence(b & 0x1F, 1);
                } else if (b >= 0xE0 && b <= 0xEF) {
                    startSequence(b & 0x0F, 2);
                    if (b == 0xE0) {
                        utf8Lower = 0xA0;
                    } else if (b == 0xED) {
                        utf8Upper = 0x9F;
                    }
                } else if (b >= 0xF0 && b <= 0xF4) {
                    startSequence(b & 0x07, 3);
                    if (b == 0xF0) {
                        utf8Lower = 0x90;
                    } else if (b == 0xF4) {
                        utf8Upper = 0x8F;
                    }
                } else {
                    onCodePoint(INVALID, 1);
                }
            } else if (b < utf8Lower || b > utf8Upper) {
                int seen = utf8Seen;
                resetSequence();
                onCodePoint(INVALID, seen);
                i--;
            } else {
                utf8CodePoint = (utf8CodePoint << 6) | (b & 0x3F);
                utf8Seen++;
                utf8Lower = 0x80;
                utf8Upper = 0xBF;
                if (--utf8Needed == 0) {
                    int codePoint = utf8CodePoint;
                    int seen = utf8Seen;
                    utf8Seen = 0;
                    onCodePoint(codePoint, seen);
                }
            }
        }
        flush();
    }

    /**
     * Ends the input: an incomplete UTF-8 character becomes U+FFFD, an open control string is
     * reported as unterminated, and everything held back is written to the sink. Further calls
     * do nothing.
     */
    public void finish() {
        if (finished) {
            return;
        }
        if (utf8Needed > 0) {
            int seen = utf8Seen;
            resetSequence();
            onCodePoint(INVALID, seen);
        }
        switch (state) {
            case STRING -> unterminatedStrings++;
            case ESCAPE, ESCAPE_INTERMEDIATE -> esc++;
            default -> {}
        }
        state = GROUND;
        dropPendingJoiner();
        if (line == null) {
            if (pendingCr) {
                pendingCr = false;
                put(LF);
            }
        } else {
            writeLine(false);
        }
        flush();
        finished = true;
    }

    /** What has been removed so far; complete after {@link #finish()}. */
    public RemovalReport report() {
        return new RemovalReport(
                esc,
                csi,
                osc,
                dcs,
                sosPmApc,
                c0,
                c1,
                del,
                cr,
                bs,
                invisible,
                invalidUtf8,
                unterminatedStrings,
                stringPayloadBytes,
                inputBytes,
                outputBytes);
    }

    // ---- the control-sequence state machine, fed one code point at a time ----

    private void onCodePoint(int cp, int byteCount) {
        if (cp == ESC) {
            onEscape();
        } else if (cp == CAN || cp == SUB) {
            abortSequence();
            c0++;
        } else if (cp >= 0x80 && cp <= 0x9F) {
            onC1(cp);
        } else {
            switch (state) {
                case GROUND -> ground(cp);
                case ESCAPE -> escape(cp, false);
                case ESCAPE_INTERMEDIATE -> escape(cp, true);
                case CSI -> controlSequence(cp);
                default -> controlString(cp, byteCount);
            }
        }
    }

    private void onEscape() {
        if (state == ESCAPE || state == ESCAPE_INTERMEDIATE) {
            esc++;
        }
        escapeEndsString = state == STRING;
        state = ESCAPE;
    }

    private void abortSequence() {
        if (state == ESCAPE || state == ESCAPE_INTERMEDIATE) {
            esc++;
        }
        state = GROUND;
    }

    private void onC1(int cp) {
        boolean inString = state == STRING;
        abortSequence();
        switch (cp) {
            case 0x9B -> enterControlSequence();
            case 0x9D -> enterString(cp);
            case 0x90 -> enterString(cp);
            case 0x98, 0x9E, 0x9F -> enterString(cp);
            case 0x9C -> {
                if (!inString) {
                    c1++;
                }
            }
            default -> c1++;
        }
    }

    private void enterControlSequence() {
        csi++;
        state = CSI;
    }

    private void enterString(int introducer) {
        switch (introducer) {
            case 0x9D, ']' -> osc++;
            case 0x90, 'P' -> dcs++;
            default -> sosPmApc++;
        }
        state = STRING;
    }

    private void ground(int cp) {
        if (cp >= 0x20 && cp < DEL || cp == LF || cp == TAB) {
            text(cp);
        } else if (cp >= 0xA0) {
            unicode(cp);
        } else if (cp == INVALID) {
            invalidUtf8++;
            text(0xFFFD);
        } else {
            control(cp);
        }
    }

    /** A C0 control or DEL, outside a sequence or inside one, where it acts the same. */
    private void control(int cp) {
        switch (cp) {
            case LF, TAB -> text(cp);
            case CR -> carriageReturn();
            case BS -> backspace();
            case DEL -> del++;
            default -> c0++;
        }
    }

    private void escape(int cp, boolean intermediate) {
        if (cp == INVALID || cp >= 0xA0) {
            esc++;
            state = GROUND;
            ground(cp);
            return;
        }
        if (cp < 0x20 || cp == DEL) {
            control(cp);
            return;
        }
        if (cp < 0x30) {
            state = ESCAPE_INTERMEDIATE;
            return;
        }
        if (!intermediate) {
            switch (cp) {
                case '[' -> {
                    enterControlSequence();
                    return;
                }
                case ']', 'P', 'X', '^', '_' -> {
                    enterString(cp);
                    return;
                }
                case '\\' -> {
                    if (!escapeEndsString) {
                        esc++;
                    }
                    state = GROUND;
                    return;
                }
                default -> {}
            }
        }
        esc++;
        state = GROUND;
    }

    private void controlSequence(int cp) {
        if (cp == INVALID || cp >= 0xA0) {
            state = GROUND;
            ground(cp);
        } else if (cp < 0x20 || cp == DEL) {
            control(cp);
        } else if (cp >= 0x40) {
            state = GROUND;
        }
    }

    private void controlString(int cp, int byteCount) {
        if (cp == BEL) {
            state = GROUND;
        } else {
            stringPayloadBytes += byteCount;
        }
    }

    // ---- the text stage: Unicode rule, CR policy, joiners ----

    private void unicode(int cp) {
        if (cp == 0x2028 || cp == 0x2029) {
            text(LF);
        } else if (cp == InvisibleCodePoints.ZERO_WIDTH_JOINER) {
            if (!pendingJoiner && Character.isExtendedPictographic(lastCodePoint)) {
                pendingJoiner = true;
            } else {
                invisible++;
            }
        } else if (InvisibleCodePoints.isInvisible(cp)) {
            invisible++;
        } else {
            text(cp);
        }
    }

    private void text(int cp) {
        if (pendingJoiner) {
            pendingJoiner = false;
            if (Character.isExtendedPictographic(cp)) {
                emit(InvisibleCodePoints.ZERO_WIDTH_JOINER);
            } else {
                invisible++;
            }
        }
        if (pendingCr) {
            pendingCr = false;
            put(LF);
            if (cp == LF) {
                lastCodePoint = LF;
                return;
            }
        }
        emit(cp);
        lastCodePoint = cp;
    }

    private void emit(int cp) {
        if (line == null) {
            put(cp);
        } else if (cp == LF) {
            writeLine(true);
        } else {
            if (line.isFull()) {
                writeLine(false);
            }
            line.put(cp);
        }
    }

    private void carriageReturn() {
        cr++;
        dropPendingJoiner();
        lastCodePoint = CR;
        if (line == null) {
            pendingCr = true;
        } else {
            line.carriageReturn();
        }
    }

    private void backspace() {
        bs++;
        if (line != null) {
            dropPendingJoiner();
            line.backspace();
        }
    }

    private void dropPendingJoiner() {
        if (pendingJoiner) {
            pendingJoiner = false;
            invisible++;
        }
    }

    private void writeLine(boolean newline) {
        for (int k = 0, n = line.length(); k < n; k++) {
            put(line.cell(k));
        }
        line.clear();
        if (newline) {
            put(LF);
        }
    }

    // ---- output buffer ----

    private void put(int cp) {
        if (outLength + 4 > OUT_CAPACITY) {
            flush();
        }
        byte[] o = out;
        int n = outLength;
        if (cp < 0x80) {
            o[n++] = (byte) cp;
        } else if (cp < 0x800) {
            o[n++] = (byte) (0xC0 | (cp >>> 6));
            o[n++] = (byte) (0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            o[n++] = (byte) (0xE0 | (cp >>> 12));
            o[n++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
            o[n++] = (byte) (0x80 | (cp & 0x3F));
        } else {
            o[n++] = (byte) (0xF0 | (cp >>> 18));
            o[n++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
            o[n++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
            o[n++] = (byte) (0x80 | (cp & 0x3F));
        }
        outLength = n;
    }

    private void flush() {
        if (outLength > 0) {
            outputBytes += outLength;
            int n = outLength;
            outLength = 0;
            sink.write(out, 0, n);
        }
    }

    private void startSequence(int bits, int needed) {
        utf8CodePoint = bits;
        utf8Needed = needed;
        utf8Seen = 1;
    }

    private void resetSequence() {
        utf8Needed = 0;
        utf8Seen = 0;
        utf8Lower = 0x80;
        utf8Upper = 0xBF;
    }

    // ---- fast paths over runs of bytes that need no decision ----

    /**
     * The ground-state fast path: copies text that needs no decision straight to the output
     * buffer, a vector register or eight bytes at a time where it can, and removes complete escape
     * sequences, CSI sequences and ESC-introduced strings in place. Returns where the state machine
     * has to take over: any other control, a code point that needs a decision, or a sequence cut by
     * the end of the chunk. For input it handles, the result (text and counts) is exactly what the
     * state machine would produce.
     */
    private int ground(byte[] in, int i, int end) {
        final byte[] o = out;
        final boolean vector = fastPath == FastPath.VECTOR;
        int n = outLength;
        // Where the last character written ends in the input; it is decoded once, on the way out.
        int lastEnd = -1;
        try {
            while (i < end) {
                if (n > OUT_CAPACITY - OUT_SLACK) {
                    outLength = n;
                    flush();
                    n = 0;
                }
                int run;
                if (n == 0) {
                    // Nothing held: a long clean run goes to the sink from the input, uncopied.
                    run = vector ? VectorScan.cleanLength(in, i, end) : cleanLength(in, i, end);
                    if (run >= DIRECT_RUN) {
                        outputBytes += run;
                        sink.write(in, i, run);
                        i += run;
                        lastEnd = i;
                        continue;
                    }
                    System.arraycopy(in, i, o, 0, run);
                    if (i + run == end) {
                        i = end;
                        n = run;
                        lastEnd = i;
                        continue;
                    }
                } else {
                    int max = Math.min(end - i, OUT_CAPACITY - n);
                    run = vector ? VectorScan.copyClean(in, i, o, n, max) : copyClean(in, i, o, n, max);
                    if (run == max) {
                        i += run;
                        n += run;
                        lastEnd = i;
                        continue;
                    }
                }
                if (run > 0) {
                    i += run;
                    n += run;
                    lastEnd = i;
                    if (n > OUT_CAPACITY - OUT_SLACK) {
                        continue;
                    }
                }
                int b = in[i];
                if (b == ESC) {
                    int next = escapeSequence(in, i, end);
                    if (next < 0) {
                        return i;
                    }
                    i = next;
                } else if (b < 0) {
                    // Multibyte text: text is copied as it is, so output advances with input.
                    int stop = Math.min(end, i + OUT_CAPACITY - n) - 4;
                    int next = multibyteRun(in, i, stop, o, n);
                    if (next == i && lastEnd == i) {
                        next = joinedEmoji(in, i, end, o, n);
                    }
                    if (next == i) {
                        next = multibyteCharacter(in, i, end, o, n);
                        if (next < 0) {
                            return i;
                        }
                    }
                    n += next - i;
                    i = next;
                    lastEnd = i;
                } else {
                    return i;
                }
            }
            return i;
        } finally {
            outLength = n;
            if (lastEnd >= 0) {
                lastCodePoint = codePointBefore(in, lastEnd);
            }
        }
    }

    /** The length of the run of clean bytes (0x20–0x7e, TAB, LF) in {@code in[i..end)}. */
    private static int cleanLength(byte[] in, int i, int end) {
        int k = i;
        for (int last = end - 8; k <= last; k += 8) {
            long special = specialBytes((long) LONGS.get(in, k));
            if (special != 0) {
                return k - i + (Long.numberOfTrailingZeros(special) >>> 3);
            }
        }
        for (; k < end; k++) {
            byte b = in[k];
            if (b < 0x20 ? b != LF && b != TAB : b == DEL) {
                break;
            }
        }
        return k - i;
    }

    /**
     * Copies the run of clean bytes (0x20–0x7e, TAB, LF) at {@code in[i]} to {@code out[n]}, at
     * most {@code max} bytes, eight at a time, and returns its length. Writes nothing past
     * {@code out[n + max - 1]}.
     */
    private static int copyClean(byte[] in, int i, byte[] out, int n, int max) {
        int k = 0;
        for (int last = max - 8; k <= last; k += 8) {
            long w = (long) LONGS.get(in, i + k);
            LONGS.set(out, n + k, w);
            long special = specialBytes(w);
            if (special != 0) {
                return k + (Long.numberOfTrailingZeros(special) >>> 3);
            }
        }
        for (; k < max; k++) {
            byte b = in[i + k];
            if (b < 0x20 ? b != LF && b != TAB : b == DEL) {
                return k;
            }
            out[n + k] = b;
        }
        return k;
    }

    /**
     * The end of the run of well-formed multibyte characters that need no decision from
     * {@code in[i]}, with the clean ASCII between them, copied to {@code out[n]}; reads and writes
     * up to eight bytes at a time, never past {@code stop} + 4. A long ASCII run goes back to the
     * wider scan.
     */
    private static int multibyteRun(byte[] in, int i, int stop, byte[] out, int n) {
        final int shift = n - i;
        int ascii = 0;
        // Two steps at a time while eight bytes can be read: the pair table is looked up for the
        // first character and, in parallel, at each place the second can start (one to four bytes
        // on), so that the next load waits on one lookup for two characters, not on two in a row.
        for (int last = stop - 4; i <= last; ) {
            long w8 = (long) LONGS.get(in, i);
            int w = (int) w8;
            int pair = LEAD_PAIRS[w & 0xFFFF];
            int at1 = LEAD_PAIRS[(int) (w8 >>> 8) & 0xFFFF];
            int at2 = LEAD_PAIRS[(int) (w8 >>> 16) & 0xFFFF];
            int at3 = LEAD_PAIRS[(int) (w8 >>> 24) & 0xFFFF];
            int at4 = LEAD_PAIRS[(int) (w8 >>> 32) & 0xFFFF];
            int length = pair & 7;
            if (length == 0
                    || (w & CONTINUATION_MASK[length]) != CONTINUATION_BITS[length]
                    || (pair & CHECK) != 0 && needsDecision(w, length)) {
                return i;
            }
            // Table entries are below 0x80, so they pack into one int without sign extension.
            int candidates = at1 | at2 << 8 | at3 << 16 | at4 << 24;
            int pair2 = candidates >>> ((length - 1) << 3) & 0xFF;
            int length2 = pair2 & 7;
            int w2 = (int) (w8 >>> (length << 3));
            LONGS.set(out, i + shift, w8);
            ascii = (pair & ASCII) != 0 ? ascii + 1 : 0;
            if (ascii == ASCII_STREAK
                    || length2 == 0
                    || (w2 & CONTINUATION_MASK[length2]) != CONTINUATION_BITS[length2]
                    || (pair2 & CHECK) != 0 && needsDecision(w2, length2)) {
                return i + length;
            }
            i += length + length2;
            ascii = (pair2 & ASCII) != 0 ? ascii + 1 : 0;
            if (ascii == ASCII_STREAK) {
                return i;
            }
        }
        while (i <= stop) {
            int w = (int) INTS.get(in, i);
            int pair = LEAD_PAIRS[w & 0xFFFF];
            int length = pair & 7;
            if (length == 0
                    || (w & CONTINUATION_MASK[length]) != CONTINUATION_BITS[length]
                    || (pair & CHECK) != 0 && needsDecision(w, length)) {
                break;
            }
            INTS.set(out, i + shift, w);
            i += length;
            ascii = (pair & ASCII) != 0 ? ascii + 1 : 0;
            if (ascii == ASCII_STREAK) {
                break;
            }
        }
        return i;
    }

    /**
     * A ZERO WIDTH JOINER at {@code in[i]} between the Extended_Pictographic character just written
     * (ending at {@code i}) and a following one that needs no decision: both copied to
     * {@code out[n]}, returning the index after them; otherwise {@code i}, for the state machine.
     */
    private static int joinedEmoji(byte[] in, int i, int end, byte[] out, int n) {
        if (i + 7 > end
                || n + 7 > OUT_CAPACITY
                || in[i] != (byte) 0xE2
                || in[i + 1] != (byte) 0x80
                || in[i + 2] != (byte) 0x8D
                || !Character.isExtendedPictographic(codePointBefore(in, i))) {
            return i;
        }
        int w = (int) INTS.get(in, i + 3);
        int pair = LEAD_PAIRS[w & 0xFFFF];
        int length = pair & 7;
        if (length < 2
                || (pair & ASCII) != 0
                || (w & CONTINUATION_MASK[length]) != CONTINUATION_BITS[length]
                || (pair & CHECK) != 0 && needsDecision(w, length)
                || !Character.isExtendedPictographic(codePointBefore(in, i + 3 + length))) {
            return i;
        }
        System.arraycopy(in, i, out, n, 3 + length);
        return i + 3 + length;
    }

    /** Whether the 3- or 4-byte character in the low bytes of {@code w} needs the state machine. */
    private static boolean needsDecision(int w, int length) {
        if (length == 3) {
            int cp = (w & 0x0F) << 12 | (w >>> 2 & 0x0FC0) | (w >>> 16 & 0x3F);
            return (SLOW_BMP[cp >>> 6] & (1L << cp)) != 0;
        }
        int cp = (w & 0x07) << 18 | (w << 4 & 0x3F000) | (w >>> 10 & 0x0FC0) | (w >>> 24 & 0x3F);
        return InvisibleCodePoints.isInvisible(cp);
    }

    /**
     * One multibyte character at {@code in[i]} near the end of the chunk or the buffer, checked
     * byte by byte and copied to {@code out[n]}: the index after it, or -1 to leave it to the state
     * machine.
     */
    private static int multibyteCharacter(byte[] in, int i, int end, byte[] out, int n) {
        int b0 = in[i] & 0xFF;
        int length;
        if (b0 >= 0xE0 && b0 <= 0xEF) {
            length = threeByteText(in, i, end, b0) < 0 ? 0 : 3;
        } else if (b0 >= 0xC2 && b0 <= 0xDF) {
            length = twoByteText(in, i, end, b0) < 0 ? 0 : 2;
        } else {
            length = fourByteText(in, i, end, b0) < 0 ? 0 : 4;
        }
        if (length == 0) {
            return -1;
        }
        System.arraycopy(in, i, out, n, length);
        return i + length;
    }

    /** The code point of the well-formed character that ends just before {@code in[end]}. */
    private static int codePointBefore(byte[] in, int end) {
        int i = end - 1;
        int b = in[i];
        if (b >= 0) {
            return b;
        }
        int cp = 0;
        int shift = 0;
        while ((b & 0xC0) == 0x80) {
            cp |= (b & 0x3F) << shift;
            shift += 6;
            b = in[--i];
        }
        int leadBits = shift == 6 ? 0x1F : shift == 12 ? 0x0F : 0x07;
        return cp | (b & leadBits) << shift;
    }

    /**
     * The index after a complete escape sequence, CSI sequence or ESC-introduced string at the ESC
     * at {@code i}, counted as the state machine counts it; or -1 when the sequence is incomplete
     * in this chunk or meets anything the state machine decides (a control, CAN, SUB, a byte from
     * 0x80 up).
     */
    private int escapeSequence(byte[] in, int i, int end) {
        int j = i + 1;
        if (j >= end) {
            return -1;
        }
        int b = in[j];
        switch (b) {
            case '[' -> {
                int next = endOfControlSequence(in, i, end);
                if (next >= 0) {
                    csi++;
                }
                return next;
            }
            case ']', 'P', 'X', '^', '_' -> {
                int payload = j + 1;
                int k = skipPayload(in, payload, end);
                int next;
                if (k < end && in[k] == BEL) {
                    next = k + 1;
                } else if (k + 1 < end && in[k] == ESC && in[k + 1] == '\\') {
                    next = k + 2;
                } else {
                    return -1;
                }
                switch (b) {
                    case ']' -> osc++;
                    case 'P' -> dcs++;
                    default -> sosPmApc++;
                }
                stringPayloadBytes += k - payload;
                return next;
            }
            default -> {
                while (b >= 0x20 && b < 0x30) {
                    if (++j >= end) {
                        return -1;
                    }
                    b = in[j];
                }
                if (b < 0x30 || b > 0x7E) {
                    return -1;
                }
                esc++;
                return j + 1;
            }
        }
    }

    /** The index after a complete {@code ESC [ params final} at {@code i}, or -1. */
    private static int endOfControlSequence(byte[] in, int i, int end) {
        int j = i + 1;
        if (j >= end || in[j] != '[') {
            return -1;
        }
        j++;
        // Eight bytes at a time: parameter and intermediate bytes are exactly those whose top
        // three bits read 001; the first byte that does not ends the sequence or aborts it.
        for (int last = end - 8; j <= last; j += 8) {
            long t = ((long) LONGS.get(in, j) & 0xE0E0E0E0E0E0E0E0L) ^ 0x2020202020202020L;
            long other = (t | t << 1 | t << 2) & HIGH_BITS;
            if (other != 0) {
                int k = j + (Long.numberOfTrailingZeros(other) >>> 3);
                int b = in[k];
                return b >= 0x40 && b <= 0x7E ? k + 1 : -1;
            }
        }
        while (j < end) {
            int b = in[j];
            if (b >= 0x40 && b <= 0x7E) {
                return j + 1;
            }
            if (b < 0x20 || b > 0x3F) {
                return -1;
            }
            j++;
        }
        return -1;
    }

    // The three decoders below return the code point of a well-formed sequence at i that is
    // complete in this chunk and needs no decision, or -1 to leave it to the state machine.

    private static int twoByteText(byte[] in, int i, int end, int b0) {
        if (i + 1 >= end) {
            return -1;
        }
        int b1 = in[i + 1];
        if ((b1 & 0xC0) != 0x80) {
            return -1;
        }
        int cp = (b0 & 0x1F) << 6 | (b1 & 0x3F);
        return (SLOW_BMP[cp >>> 6] & (1L << cp)) == 0 ? cp : -1;
    }

    private static int threeByteText(byte[] in, int i, int end, int b0) {
        if (i + 2 >= end) {
            return -1;
        }
        int b1 = in[i + 1] & 0xFF;
        int b2 = in[i + 2];
        if ((b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80 || b0 == 0xE0 && b1 < 0xA0 || b0 == 0xED && b1 > 0x9F) {
            return -1;
        }
        int cp = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F);
        return (SLOW_BMP[cp >>> 6] & (1L << cp)) == 0 ? cp : -1;
    }

    private static int fourByteText(byte[] in, int i, int end, int b0) {
        if (b0 < 0xF0 || b0 > 0xF4 || i + 3 >= end) {
            return -1;
        }
        int b1 = in[i + 1] & 0xFF;
        int b2 = in[i + 2];
        int b3 = in[i + 3];
        if ((b1 & 0xC0) != 0x80
                || (b2 & 0xC0) != 0x80
                || (b3 & 0xC0) != 0x80
                || b0 == 0xF0 && b1 < 0x90
                || b0 == 0xF4 && b1 > 0x8F) {
            return -1;
        }
        int cp = (b0 & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F);
        return InvisibleCodePoints.isInvisible(cp) ? -1 : cp;
    }

    private static byte[] leadPairs() {
        byte[] pairs = new byte[1 << 16];
        for (int b0 = 0; b0 < 0x80; b0++) {
            if (b0 >= 0x20 && b0 != DEL || b0 == LF || b0 == TAB) {
                for (int b1 = 0; b1 < 0x100; b1++) {
                    boolean clean = b1 >= 0x20 && b1 < DEL || b1 == LF || b1 == TAB;
                    pairs[b0 | b1 << 8] = (byte) (ASCII | (clean ? 2 : 1));
                }
            }
        }
        for (int b0 = 0xC2; b0 <= 0xF4; b0++) {
            int low = b0 == 0xE0 ? 0xA0 : b0 == 0xF0 ? 0x90 : 0x80;
            int high = b0 == 0xED ? 0x9F : b0 == 0xF4 ? 0x8F : 0xBF;
            for (int b1 = low; b1 <= high; b1++) {
                int value;
                if (b0 <= 0xDF) {
                    int cp = (b0 & 0x1F) << 6 | (b1 & 0x3F);
                    value = (SLOW_BMP[cp >>> 6] & (1L << cp)) == 0 ? 2 : 0;
                } else if (b0 <= 0xEF) {
                    int first = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6;
                    value = SLOW_BMP[first >>> 6] == 0 ? 3 : 3 | CHECK;
                } else {
                    int first = (b0 & 0x07) << 18 | (b1 & 0x3F) << 12;
                    value = 4;
                    for (int cp = first; cp < first + 0x1000; cp++) {
                        if (InvisibleCodePoints.isInvisible(cp)) {
                            value = 4 | CHECK;
                            break;
                        }
                    }
                }
                pairs[b0 | b1 << 8] = (byte) value;
            }
        }
        return pairs;
    }

    private static long[] slowCodePoints() {
        long[] bits = InvisibleCodePoints.bitmap(0xFFFF);
        for (int cp = 0; cp < 0xA0; cp++) {
            bits[cp >>> 6] |= 1L << cp;
        }
        for (int cp : new int[] {InvisibleCodePoints.ZERO_WIDTH_JOINER, 0x2028, 0x2029}) {
            bits[cp >>> 6] |= 1L << cp;
        }
        return bits;
    }

    /**
     * A mask with the high bit set in each byte of {@code w} that is not clean text: below 0x20
     * but for TAB and LF, DEL, or 0x80 and above. Exact per byte (no carry crosses a byte), so
     * that TAB and LF can be taken out of the controls.
     */
    private static long specialBytes(long w) {
        long low = w & LOW_SEVEN;
        long atLeastSpace = low + 0x6060606060606060L;
        long notTab = (low ^ 0x0909090909090909L) + LOW_SEVEN;
        long notLineFeed = (low ^ 0x0A0A0A0A0A0A0A0AL) + LOW_SEVEN;
        long delete = low + 0x0101010101010101L;
        return (w | ~atLeastSpace & notTab & notLineFeed | delete) & HIGH_BITS;
    }

    /** The end of the run from {@code i} of ASCII payload bytes that cannot end a control string. */
    private static int skipPayload(byte[] a, int i, int end) {
        // Eight bytes at a time: a byte from 0x80 up, or one of ESC, BEL, CAN, SUB (each found
        // exactly: the low seven bits XOR the value are zero only for that byte, and adding 0x7f
        // to at most 0x7f carries into no other byte).
        for (int last = end - 8; i <= last; i += 8) {
            long w = (long) LONGS.get(a, i);
            long low = w & LOW_SEVEN;
            long stops = w
                    | ~(((low ^ 0x1B1B1B1B1B1B1B1BL) + LOW_SEVEN)
                            & ((low ^ 0x0707070707070707L) + LOW_SEVEN)
                            & ((low ^ 0x1818181818181818L) + LOW_SEVEN)
                            & ((low ^ 0x1A1A1A1A1A1A1A1AL) + LOW_SEVEN));
            stops &= HIGH_BITS;
            if (stops != 0) {
                return i + (Long.numberOfTrailingZeros(stops) >>> 3);
            }
        }
        while (i < end) {
            int b = a[i];
            if (b < 0 || b == ESC || b == BEL || b == CAN || b == SUB) {
                return i;
            }
            i++;
        }
        return i;
    }

    /** The end of the run from {@code i} of CSI parameter and intermediate bytes (0x20–0x3f). */
    private static int skipParameters(byte[] a, int i, int end) {
        while (i < end) {
            int b = a[i];
            if (b < 0x20 || b > 0x3F) {
                return i;
            }
            i++;
        }
        return i;
    }
}
