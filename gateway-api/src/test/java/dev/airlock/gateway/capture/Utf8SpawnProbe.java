package dev.airlock.gateway.capture;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run in a JVM of its own by {@link LibCEncodingTests}: starts {@code sh} through {@link LibC}
 * with a non-ASCII argument, which the shell writes to the file named by the first argument.
 */
final class Utf8SpawnProbe {

    private Utf8SpawnProbe() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        LibC.spawn(
                "/bin/sh",
                new String[] {
                    "sh", "-c", "printf %s \"$1\" > \"$2\"; touch \"$2.done\"", "sh", "caf\u00e9", out.toString()
                },
                new String[] {"PATH=/usr/bin:/bin"},
                new int[] {-1, -1, -1});
        Path done = Path.of(out + ".done");
        for (int i = 0; i < 1000 && !Files.exists(done); i++) {
            Thread.sleep(10);
        }
    }
}
