package dev.airlock.egress;

import java.io.IOException;
import java.io.InputStream;

/** A response body that gives at most {@code limit} bytes, then fails with {@link ResponseLimitException}. */
final class BoundedBody extends InputStream {

    private final InputStream in;
    private final long limit;
    private long read;

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
        if (length == 0) {
            return 0;
        }
        if (read >= limit) {
            // One byte more tells a body of exactly the limit from a longer one.
            if (in.read() < 0) {
                return -1;
            }
            throw new ResponseLimitException(limit);
        }
        int n = in.read(buffer, offset, (int) Math.min(length, limit - read));
        if (n > 0) {
            read += n;
        }
        return n;
    }

    @Override
    public void close() {
        // The connection is closed or released by the call, which knows whether the body was read to its end.
    }
}
