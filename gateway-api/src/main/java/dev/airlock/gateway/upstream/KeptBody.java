package dev.airlock.gateway.upstream;

import dev.airlock.egress.ResponseReader;
import dev.airlock.gateway.capture.StreamCapture;
import dev.airlock.gateway.capture.StreamResult;
import dev.airlock.sanitizer.SecretRedactor;
import java.io.InputStream;
import org.jspecify.annotations.Nullable;

/**
 * The body of an HTTP call's answer, captured as a process's output is (bounded, redacted, with its
 * raw bytes), and only the last attempt's: a retry's answer is the call's, body or none, and a read
 * that began in an earlier attempt (cut at that attempt's time-out, still ending on its own thread
 * while the retry is under way) is dropped, whenever it ends.
 */
final class KeptBody implements ResponseReader {

    private final long maxRetainedBytes;
    private final SecretRedactor redactor;
    /** The attempt now under way; a read keeps what it captured only if no other attempt began meanwhile. */
    private int attempt;

    private @Nullable StreamResult body;
    private @Nullable String contentType;

    KeptBody(long maxRetainedBytes, SecretRedactor redactor) {
        this.maxRetainedBytes = maxRetainedBytes;
        this.redactor = redactor;
    }

    @Override
    public synchronized void attemptStarted() {
        attempt++;
        body = null;
        contentType = null;
    }

    @Override
    public void read(int status, @Nullable String type, InputStream in) {
        int reading;
        synchronized (this) {
            reading = attempt;
        }
        StreamCapture capture = new StreamCapture(() -> in, maxRetainedBytes, Long.MAX_VALUE, redactor, () -> {});
        capture.run();
        StreamResult captured = capture.seal();
        synchronized (this) {
            if (reading == attempt) {
                body = captured;
                contentType = type;
            }
        }
    }

    /** The last attempt's body, or null when it had none. */
    synchronized @Nullable StreamResult body() {
        return body;
    }

    /** The last attempt's content type, or null. */
    synchronized @Nullable String contentType() {
        return contentType;
    }
}
