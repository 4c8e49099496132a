package dev.airlock.gateway.capture;

import dev.airlock.kernel.digest.Sha256;
import dev.airlock.sanitizer.RedactingStream;
import dev.airlock.sanitizer.SecretRedactor;
import dev.airlock.sanitizer.TerminalSanitizer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Reads one stream of a process until its end, chunk by chunk: every observed byte into the
 * SHA-256 and the counters, the first {@code maxRetained} bytes into the raw buffer and through
 * the sanitizer and redactor into the transcript. The raw buffer keeps the bytes as observed except
 * the values of secrets Airlock itself injected, which are replaced there too. Once sealed, it ignores whatever a leftover
 * process still writes.
 */
public final class StreamCapture implements Runnable {

    private static final int CHUNK = 64 * 1024;

    /** Opens the stream to read, on the capture's own thread (opening a named pipe waits for its writer). */
    @FunctionalInterface
    public interface Source {
        InputStream open() throws IOException;
    }

    private final Source source;
    private volatile @Nullable InputStream in;
    private final long maxRetained;
    private final long maxObserved;
    private final Runnable onLimit;
    private final MessageDigest digest = Sha256.newDigest();
    private final ByteArrayOutputStream raw = new ByteArrayOutputStream();
    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final RedactingStream redacting;
    private final RedactingStream rawRedacting;
    /** What the digest is fed through: the redactor's stream, or null when the tool has no secrets. */
    private final @Nullable RedactingStream digestRedacting;

    private final TerminalSanitizer sanitizer;
    private final CountDownLatch ended = new CountDownLatch(1);

    private long observed;
    private long retained;
    private boolean eof;
    private boolean limitReached;
    private boolean sealed;
    private boolean abandoned;

    /**
     * @param source      opens the stream
     * @param maxRetained bytes kept for the transcript and the raw buffer
     * @param maxObserved bytes after which {@code onLimit} runs (once)
     * @param redactor    replaces injected secret values, in the transcript and in the raw buffer
     * @param onLimit     what to do when the stream passes {@code maxObserved}
     */
    public StreamCapture(Source source, long maxRetained, long maxObserved, SecretRedactor redactor, Runnable onLimit) {
        this.source = source;
        this.maxRetained = maxRetained;
        this.maxObserved = maxObserved;
        this.onLimit = onLimit;
        // Secrets are redacted from the bytes as the tool wrote them first (the raw buffer and the
        // sanitizer both get the redacted bytes), then once more after the sanitizer, in the forms it
        // rewrites them to: a secret with CR LF line ends, a byte order mark or invisible characters
        // never reaches the transcript whole.
        this.redacting = redactor.forSanitizedText().stream(text::write);
        this.sanitizer = TerminalSanitizer.create(redacting);
        this.rawRedacting = redactor.stream((bytes, offset, length) -> {
            raw.write(bytes, offset, length);
            sanitizer.write(bytes, offset, length);
        });
        // The digest covers every observed byte as the raw artifact keeps them, secrets replaced: a
        // digest of the value as written would let whoever reads the envelope test guesses of it.
        this.digestRedacting = redactor.names().isEmpty() ? null : redactor.stream(digest::update);
    }

    /** What {@code bytes} become through the capture pipeline: retained, redacted, sanitized. */
    public static StreamResult of(byte[] bytes, long maxRetained, SecretRedactor redactor) {
        StreamCapture capture = new StreamCapture(
                () -> new java.io.ByteArrayInputStream(bytes), maxRetained, Long.MAX_VALUE, redactor, () -> {});
        capture.run();
        return capture.seal();
    }

    /**
     * {@code text} from an upstream made inert to be shown as a fact: its first 4,096 bytes, secret
     * values redacted, sanitized like output (still to be fenced or kept out of Airlock's own words).
     */
    public static String inert(String text, SecretRedactor redactor) {
        return of(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), 4096, redactor)
                .text();
    }

    @Override
    public void run() {
        byte[] buffer = new byte[CHUNK];
        try (InputStream stream = source.open()) {
            in = stream;
            synchronized (this) {
                if (abandoned) {
                    return;
                }
            }
            int n;
            while ((n = stream.read(buffer)) >= 0) {
                if (!accept(buffer, n)) {
                    return;
                }
            }
            synchronized (this) {
                // Closing an abandoned pipe can make the blocked read return -1: that is not its end.
                eof = !sealed && !abandoned;
            }
        } catch (IOException e) {
            // The pipe could not be opened, or was closed under us after the drain deadline: EOF stays unseen.
        } finally {
            ended.countDown();
        }
    }

    private synchronized boolean accept(byte[] buffer, int n) {
        if (sealed) {
            return false;
        }
        if (digestRedacting == null) {
            digest.update(buffer, 0, n);
        } else {
            digestRedacting.write(buffer, 0, n);
        }
        observed += n;
        int keep = (int) Math.min(n, maxRetained - retained);
        if (keep > 0) {
            rawRedacting.write(buffer, 0, keep);
            retained += keep;
        }
        if (observed > maxObserved && !limitReached) {
            limitReached = true;
            onLimit.run();
        }
        return true;
    }

    /** Waits up to {@code millis} for the end of the stream; true if it came. */
    boolean awaitEnd(long millis) throws InterruptedException {
        return ended.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Closes the pipe from this side, for a stream whose writer outlived every deadline; its end stays unseen. */
    void abandon() {
        synchronized (this) {
            abandoned = true;
        }
        InputStream stream = in;
        if (stream == null) {
            return;
        }
        try {
            stream.close();
        } catch (IOException ignored) {
            // Nothing more can be read either way.
        }
    }

    /** Stops accepting data and returns what was observed. */
    public synchronized StreamResult seal() {
        sealed = true;
        if (digestRedacting != null) {
            digestRedacting.finish();
        }
        rawRedacting.finish();
        sanitizer.finish();
        redacting.finish();
        return new StreamResult(
                observed,
                retained,
                retained < observed,
                eof,
                Sha256.hex(digest),
                text.toString(StandardCharsets.UTF_8),
                sanitizer.report(),
                rawRedacting.redactions() + redacting.redactions(),
                raw.toByteArray(),
                rawRedacting.redactions());
    }
}
