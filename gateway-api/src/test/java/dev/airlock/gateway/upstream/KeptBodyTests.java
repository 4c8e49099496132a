package dev.airlock.gateway.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.sanitizer.SecretRedactor;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Only the last attempt's body is the call's. */
class KeptBodyTests {

    private final KeptBody kept = new KeptBody(1000, SecretRedactor.of(Map.of()));

    private static InputStream text(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void keepsTheBodyOfTheAttemptUnderWayAndForgetsItWhenAnotherBegins() {
        kept.attemptStarted();
        kept.read(200, "text/plain", text("hello"));
        assertThat(kept.body()).isNotNull();
        assertThat(kept.body().text()).isEqualTo("hello");
        assertThat(kept.contentType()).isEqualTo("text/plain");
        kept.attemptStarted();
        assertThat(kept.body()).as("a retry without a body keeps none").isNull();
        assertThat(kept.contentType()).isNull();
    }

    @Test
    void aReadThatEndsAfterTheNextAttemptBeganIsDropped() {
        // An attempt cut at its time-out goes on reading on its own thread; the retry began meanwhile.
        kept.attemptStarted();
        InputStream late = new ByteArrayInputStream("cut short".getBytes(StandardCharsets.UTF_8)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                kept.attemptStarted();
                return super.read(b, off, len);
            }
        };
        kept.read(200, "text/plain", late);
        assertThat(kept.body())
                .as("the earlier attempt's bytes are not the retry's answer")
                .isNull();
        kept.read(204, null, text(""));
        assertThat(kept.body()).isNotNull();
        assertThat(kept.body().text()).isEmpty();
    }
}
