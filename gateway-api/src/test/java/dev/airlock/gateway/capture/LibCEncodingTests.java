package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Strings reach the C library as UTF-8 whatever the host's locale says. */
class LibCEncodingTests {

    @Test
    void aProgramGetsItsArgumentsAsUtf8UnderTheCLocale(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("argument");
        ProcessBuilder probe = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Utf8SpawnProbe.class.getName(),
                out.toString());
        // A host whose locale is C (as a container's often is): the JVM's native encoding is ASCII there.
        probe.environment().clear();
        probe.environment().put("LC_ALL", "C");
        probe.environment().put("PATH", "/usr/bin:/bin");
        probe.redirectErrorStream(true).redirectOutput(dir.resolve("probe.log").toFile());
        Process process = probe.start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the probe ended").isTrue();
        assertThat(process.exitValue())
                .as(Files.readString(dir.resolve("probe.log")))
                .isZero();
        assertThat(Files.readAllBytes(out))
                .as("\"café\" as UTF-8, not as the locale's '?'")
                .containsExactly('c', 'a', 'f', 0xc3, 0xa9);
    }
}
