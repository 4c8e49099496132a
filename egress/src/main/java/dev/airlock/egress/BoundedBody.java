package dev.airlock.egress;

import java.io.IOException;
import java.io.InputStream;
import org.jspecify.annotations.Nullable;

/**
 * A response body that gives at most {@code limit} bytes, then fails with {@link
 * ResponseLimitException}. It remembers the first failure it passed on, so that the call knows how
 * the body ended even when a reader swallowed the exception.
 */
final class BoundedBody extends InputStream {

    private final InputStream in;
    private final long limit;
    private long read;
    private @Nullable IOException failure;
    private boolean ended;

    BoundedBody(InputStream in, long limit) {
        this.in = in;
        this.limit = limit;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (failure != null) {
            throw failure;
        }
        try {
            return bounded(buffer, offset, length);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    /** The first failure passed on to the reader, or null when the body ended well (or was not read to its end). */
    @Nullable
    IOException failure() {
        return failure;
    }

    /** Whether the body was read to its end (so closing it drains nothing). */
    boolean ended() {
        return ended;
    }

    private int bounded(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (read >= limit) {
            // One byte more tells a body of exactly the limit from a longer one.
            if (in.read() < 0) {
                ended = true;
                return -1;
            }
            throw new ResponseLimitException(limit);
        }
        int n = in.read(buffer, offset, (int) Math.min(length, limit - read));
        if (n > 0) {
            read += n;
        } else if (n < 0) {
            ended = true;
        }
        return n;
    }

    @Override
    public void close() {
        // The connection is closed or released by the call, which knows whether the body was read to its end.
    }
}
