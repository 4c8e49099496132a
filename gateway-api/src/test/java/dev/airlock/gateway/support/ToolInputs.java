package dev.airlock.gateway.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files the test tools read. A tool sees nothing of the host outside its sandbox except the paths
 * its configuration mounts, so the tests that hand a tool a file put it under the directory that
 * {@code application-test.yaml} mounts read-only: {@code ${user.dir}/target/tool-inputs}.
 */
public final class ToolInputs {

    private ToolInputs() {}

    /** A directory of its own for {@code owner}'s files, inside the mounted one (created if needed). */
    public static Path directory(String owner) {
        try {
            return Files.createDirectories(Path.of(System.getProperty("user.dir"), "target", "tool-inputs", owner)
                    .toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
