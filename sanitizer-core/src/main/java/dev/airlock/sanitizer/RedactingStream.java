package dev.airlock.sanitizer;

import java.util.Objects;

/**
 * One stream through a {@link SecretRedactor}: bytes in, redacted bytes out to a sink. Holds back
 * only what may still turn out to be part of a secret. One stream, one thread.
 */
public final class RedactingStream implements ByteSink {

    /**
     * The shortest start of a secret that is replaced when a stream ends in it: a stream cut off
     * in the middle of a value (end of output, an output limit, a kill) must not leak all of it
     * but its last bytes. Shorter tails are written as they are.
     */
    public static final int MIN_REDACTED_TAIL = 4;

    private static final int OUT_CAPACITY = 16 * 1024;
    private static final byte[] NOTHING = new byte[0];

    private final SecretRedactor redactor;
    private final ByteSink sink;
    private final byte[] out = new byte[OUT_CAPACITY];
    private int outLength;

    /** Bytes not yet written: {@code pending[head .. head + count)}, starting at stream offset {@code pendingStart}. */
    private final byte[] pending;

    private int head;
    private int count;
    private long pendingStart;
    private long position;
    private int state;

    private int candidate = -1;
    private long candidateStart;
    private long candidateEnd;

    /** Bytes already seen that must be scanned again after a replacement. */
    private byte[] replay = NOTHING;

    private int replayIndex;

    private long redactions;
    private boolean finished;

    RedactingStream(SecretRedactor redactor, ByteSink sink) {
        this.redactor = redactor;
        this.sink = Objects.requireNonNull(sink, "sink");
        this.pending = new byte[2 * (redactor.maxPatternLength + 1)];
    }

    /** Redacts {@code length} bytes of {@code bytes} from {@code offset}. */
    @Override
    public void write(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (finished) {
            throw new IllegalStateException("write after finish");
        }
        final int[] transitions = redactor.transitions;
        final int[] byteClass = redactor.byteClass;
        int i = offset;
        final int end = offset + length;
        while (i < end) {
            if (state == 0 && candidate < 0 && count == 0) {
                int run = i;
                while (run < end && transitions[byteClass[bytes[run] & 0xFF]] == 0) {
                    run++;
                }
                if (run > i) {
                    put(bytes, i, run - i);
                    position += run - i;
                    pendingStart = position;
                    i = run;
                    if (i == end) {
                        break;
                    }
                }
            }
            step(bytes[i++]);
            replayAll();
        }
        flush();
    }

    /**
     * Writes everything held back, replacing what matches and a tail of at least
     * {@link #MIN_REDACTED_TAIL} bytes that starts a secret. Further calls do nothing.
     */
    public void finish() {
        if (finished) {
            return;
        }
        replayAll();
        while (candidate >= 0) {
            commit();
            replayAll();
        }
        int held = redactor.depth[state];
        if (held >= MIN_REDACTED_TAIL) {
            // What is held back is exactly the start of a secret the stream ended in.
            emitUpTo(position - held);
            byte[] replacement = redactor.replacements[redactor.prefixOf[state]];
            put(replacement, 0, replacement.length);
            redactions++;
            head += held;
            count -= held;
            pendingStart = position;
        }
        emitUpTo(position);
        flush();
        finished = true;
    }

    /** How many values this stream has replaced so far. */
    public long redactions() {
        return redactions;
    }

    private void replayAll() {
        while (replayIndex < replay.length) {
            step(replay[replayIndex++]);
        }
    }

    private void step(byte b) {
        if (head + count == pending.length) {
            System.arraycopy(pending, head, pending, 0, count);
            head = 0;
        }
        pending[head + count++] = b;
        position++;
        state = redactor.transitions[state * redactor.classes + redactor.byteClass[b & 0xFF]];
        int match = redactor.longestMatch[state];
        if (match >= 0) {
            long start = position - redactor.patternLengths[match];
            if (candidate < 0 || start < candidateStart || start == candidateStart && position > candidateEnd) {
                candidate = match;
                candidateStart = start;
                candidateEnd = position;
            }
        }
        long live = position - redactor.depth[state];
        if (candidate >= 0 && live > candidateStart) {
            commit();
        } else {
            emitUpTo(live);
        }
    }

    /** Replaces the candidate and queues the bytes after it to be scanned again from the root. */
    private void commit() {
        emitUpTo(candidateStart);
        byte[] replacement = redactor.replacements[candidate];
        put(replacement, 0, replacement.length);
        redactions++;
        int tailOffset = (int) (candidateEnd - pendingStart);
        int tailLength = (int) (position - candidateEnd);
        int rest = replay.length - replayIndex;
        byte[] next = new byte[tailLength + rest];
        System.arraycopy(pending, head + tailOffset, next, 0, tailLength);
        System.arraycopy(replay, replayIndex, next, tailLength, rest);
        replay = next;
        replayIndex = 0;
        head = 0;
        count = 0;
        pendingStart = candidateEnd;
        position = candidateEnd;
        state = 0;
        candidate = -1;
    }

    private void emitUpTo(long streamOffset) {
        int n = (int) (streamOffset - pendingStart);
        if (n > 0) {
            put(pending, head, n);
            head += n;
            count -= n;
            pendingStart = streamOffset;
        }
    }

    private void put(byte[] bytes, int offset, int length) {
        if (length > OUT_CAPACITY - outLength) {
            flush();
            if (length > OUT_CAPACITY) {
                sink.write(bytes, offset, length);
                return;
            }
        }
        System.arraycopy(bytes, offset, out, outLength, length);
        outLength += length;
    }

    private void flush() {
        if (outLength > 0) {
            int n = outLength;
            outLength = 0;
            sink.write(out, 0, n);
        }
    }
}
