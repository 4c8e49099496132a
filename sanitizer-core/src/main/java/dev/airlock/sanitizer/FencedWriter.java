package dev.airlock.sanitizer;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Streams a fenced body (see {@link Fence}): the opening line before the first byte, the gutter
 * at the start of every line, the closing line at {@link #finish()}. One stream, one thread.
 */
public final class FencedWriter implements ByteSink {

    private static final byte[] GUTTER = Fence.GUTTER.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = (Fence.CLOSE_LINE + "\n").getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEWLINE = {'\n'};

    private final byte[] open;
    private final ByteSink sink;
    private boolean opened;
    private boolean atLineStart = true;
    private boolean finished;

    FencedWriter(String openLine, ByteSink sink) {
        this.open = (openLine + "\n").getBytes(StandardCharsets.UTF_8);
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    /** Writes body bytes, adding the gutter at each line start. */
    @Override
    public void write(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (finished) {
            throw new IllegalStateException("write after finish");
        }
        open();
        int start = offset;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (atLineStart) {
                sink.write(GUTTER, 0, GUTTER.length);
                atLineStart = false;
            }
            if (bytes[i] == '\n') {
                sink.write(bytes, start, i + 1 - start);
                start = i + 1;
                atLineStart = true;
            }
        }
        if (start < end) {
            sink.write(bytes, start, end - start);
        }
    }

    /** Ends the last body line if it is open and writes the closing line. Further calls do nothing. */
    public void finish() {
        if (finished) {
            return;
        }
        open();
        if (!atLineStart) {
            sink.write(NEWLINE, 0, 1);
        }
        sink.write(CLOSE, 0, CLOSE.length);
        finished = true;
    }

    private void open() {
        if (!opened) {
            sink.write(open, 0, open.length);
            opened = true;
        }
    }
}
