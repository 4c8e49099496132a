package dev.airlock.gateway.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.capture.StreamResult;
import dev.airlock.sanitizer.SecretRedactor;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Only the last attempt's body is the call's; each attempt starts and reads on a thread of its own. */
class KeptBodyTests {

    private final KeptBody kept = new KeptBody(1000, SecretRedactor.of(Map.of()));
    private final ExecutorService first = Executors.newSingleThreadExecutor();
    private final ExecutorService retry = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        first.shutdownNow();
        retry.shutdownNow();
    }

    private static InputStream text(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void on(ExecutorService thread, Runnable work) throws Exception {
        CompletableFuture.runAsync(work, thread).get();
    }

    private String keptText() {
        StreamResult body = kept.kept().body();
        return body == null ? "(none)" : body.text();
    }

    @Test
    void keepsTheBodyOfTheAttemptUnderWayAndForgetsItWhenAnotherBegins() throws Exception {
        on(first, () -> {
            kept.attemptStarted();
            kept.read(200, "text/plain", text("hello"));
        });
        assertThat(keptText()).isEqualTo("hello");
        assertThat(kept.kept().contentType()).isEqualTo("text/plain");
        on(retry, kept::attemptStarted);
        assertThat(kept.kept().body()).as("a retry without a body keeps none").isNull();
        assertThat(kept.kept().contentType()).isNull();
    }

    @Test
    void aReadThatEndsAfterTheRetryBeganIsDropped() throws Exception {
        // The first attempt, cut at its time-out, is still reading when the retry begins on another thread.
        on(first, () -> {
            kept.attemptStarted();
            InputStream late = new ByteArrayInputStream("cut short".getBytes(StandardCharsets.UTF_8)) {
                @Override
                public synchronized int read(byte[] b, int off, int len) {
                    try {
                        on(retry, kept::attemptStarted);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return super.read(b, off, len);
                }
            };
            kept.read(200, "text/plain", late);
        });
        assertThat(kept.kept().body())
                .as("the earlier attempt's bytes are not the retry's answer")
                .isNull();
        on(retry, () -> kept.read(204, null, text("")));
        assertThat(keptText()).isEmpty();
    }

    @Test
    void aReadThatBeginsOnlyAfterTheRetryBeganIsDroppedToo() throws Exception {
        // The first attempt's thread stalled between its answer's headers and its read until the retry began.
        on(first, kept::attemptStarted);
        on(retry, kept::attemptStarted);
        on(first, () -> kept.read(200, "text/plain", text("old")));
        assertThat(kept.kept().body()).isNull();
        on(retry, () -> kept.read(200, "text/plain", text("new")));
        assertThat(keptText()).isEqualTo("new");
    }
}
