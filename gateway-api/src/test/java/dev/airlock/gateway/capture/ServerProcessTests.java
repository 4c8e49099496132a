package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.sanitizer.SecretRedactor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping a long-lived server's process once it has ended: its pid may have been reaped and given to another
 * process, which must not be killed in its place; and a second stop (a channel that saw the end, then the session
 * closing it) does nothing more; nor does an interrupt cut a stop short.
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

    @Test
    void aStopAskedOnAnInterruptedThreadStillWaitsForTheProcessAndRemovesItsDirectory(@TempDir Path work)
            throws Exception {
        // A server is stopped by a watcher that the gateway's own stop interrupts: the stop is not cut short.
        // A server holding 1 GiB it has written to: the kernel takes a few hundred milliseconds to tear that down
        // after the kill, so the stop has to wait for it (and an interrupted wait would end at once).
        Process running = new ProcessBuilder(
                        "python3",
                        "-c",
                        "import time\nheld = b'\\x01' * (1 << 30)\nprint('started', flush=True)\ntime.sleep(60)")
                .start();
        assertThat(new String(running.getInputStream().readNBytes(8), java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("started\n");
        Path scratch = Files.createDirectories(work.resolve("run-" + UUID.randomUUID()));
        Files.writeString(scratch.resolve("left.txt"), "what the server wrote");
        ServerProcess server = new ServerProcess(
                spec(UUID.randomUUID()),
                Child.of(running),
                running.getOutputStream(),
                running.getInputStream(),
                running.getErrorStream(),
                scratch,
                () -> {});
        try {
            Thread.currentThread().interrupt();
            server.stop();
            assertThat(Thread.interrupted()).as("the caller's interrupt kept").isTrue();
            assertThat(running.isAlive()).isFalse();
            assertThat(scratch).doesNotExist();
        } finally {
            Thread.interrupted();
            running.destroyForcibly();
        }
    }
}
