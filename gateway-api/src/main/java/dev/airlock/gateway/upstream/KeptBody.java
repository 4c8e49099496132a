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
 * by an earlier attempt (cut at that attempt's time-out, still going on its own thread while the
 * retry is under way, or only beginning then) is dropped. An attempt starts and reads on one thread
 * ({@link ResponseReader#attemptStarted} then {@link ResponseReader#read}), which is how a read knows
 * whose it is.
 */
final class KeptBody implements ResponseReader {

    /**
     * The body and its content type, as the last attempt left them.
     *
     * @param body        the body, or null when the last attempt had none
     * @param contentType its content type, or null
     */
    record Kept(@Nullable StreamResult body, @Nullable String contentType) {}

    private final long maxRetainedBytes;
    private final SecretRedactor redactor;
    /** The attempt each thread started (an attempt's thread reads for that attempt only). */
    private final ThreadLocal<Integer> started = new ThreadLocal<>();
    /** The last attempt started; a read keeps what it captured only if it is that attempt's. */
    private int attempt;

    private Kept kept = new Kept(null, null);

    KeptBody(long maxRetainedBytes, SecretRedactor redactor) {
        this.maxRetainedBytes = maxRetainedBytes;
        this.redactor = redactor;
    }

    @Override
    public synchronized void attemptStarted() {
        attempt++;
        started.set(attempt);
        kept = new Kept(null, null);
    }

    @Override
    public void read(int status, @Nullable String type, InputStream in) {
        Integer mine = started.get();
        StreamCapture capture = new StreamCapture(() -> in, maxRetainedBytes, Long.MAX_VALUE, redactor, () -> {});
        capture.run();
        StreamResult captured = capture.seal();
        synchronized (this) {
            if (mine != null && mine == attempt) {
                kept = new Kept(captured, type);
            }
        }
    }

    /** What the last attempt left: its body and content type. */
    synchronized Kept kept() {
        return kept;
    }
}
