package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.sanitizer.SecretRedactor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Stopping a long-lived server's process once it has ended: its pid may have been reaped and given to another
 * process, which must not be killed in its place; and a second stop (a channel that saw the end, then the session
 * closing it) does nothing more.
 */
class ServerProcessTests {

    @Test
    void aServerThatEndedIsNotKilledByItsPidWhichAnotherProcessMayHoldNow() throws Exception {
        // Another process holding the pid the ended server had, as after its reaping.
        Process other = new ProcessBuilder("sleep", "60").start();
        AtomicInteger streamsClosed = new AtomicInteger();
        try {
            ServerProcess server = new ServerProcess(
                    spec(UUID.randomUUID()),
                    ended(other.pid()),
                    new ByteArrayOutputStream(),
                    new ByteArrayInputStream(new byte[0]),
                    new ByteArrayInputStream(new byte[0]),
                    null,
                    streamsClosed::incrementAndGet);

            server.stop();
            server.stop();

            assertThat(other.waitFor(500, TimeUnit.MILLISECONDS))
                    .as("the process that holds the pid now was killed")
                    .isFalse();
            assertThat(other.isAlive()).isTrue();
            assertThat(streamsClosed).as("stopped once").hasValue(1);
        } finally {
            other.destroyForcibly();
        }
    }

    /** A child that has ended, whose pid is {@code pid}. */
    private static Child ended(long pid) {
        return new Child() {
            @Override
            public long pid() {
                return pid;
            }

            @Override
            public boolean isAlive() {
                return false;
            }

            @Override
            public boolean waitFor(long millis) {
                return true;
            }

            @Override
            public int exitValue() {
                return 0;
            }
        };
    }

    private static ProcessSpec spec(UUID runId) {
        return new ProcessSpec(
                runId,
                "test",
                List.of("true"),
                null,
                Map.of(),
                Duration.ofSeconds(5),
                1024,
                1024,
                SecretRedactor.of(Map.of()),
                SandboxPolicy.DEFAULTS);
    }
}
