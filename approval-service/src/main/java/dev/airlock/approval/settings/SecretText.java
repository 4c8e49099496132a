package dev.airlock.approval.settings;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads a secret the people's side is configured with only by where it is: {@code env:NAME} (a
 * variable of the gateway's environment) or {@code file:/absolute/path} (a mounted Secret). A
 * source that cannot be read stops the start, naming the key, never the value.
 */
public final class SecretText {

    private SecretText() {}

    /**
     * The secret at {@code reference}.
     *
     * @param where       the setting's key, for the error
     * @param environment the gateway's environment
     * @throws InvalidConfigurationException when it is no such reference or cannot be read
     */
    public static String read(String reference, String where, Function<String, Optional<String>> environment) {
        if (reference.startsWith("file:")) {
            Path file = Path.of(reference.substring("file:".length()));
            if (!file.isAbsolute()) {
                throw new InvalidConfigurationException(where, "a file: source needs an absolute path");
            }
            try {
                return Files.readString(file, StandardCharsets.US_ASCII);
            } catch (IOException | RuntimeException e) {
                throw new InvalidConfigurationException(
                        where, "the file cannot be read (" + e.getClass().getSimpleName() + ")");
            }
        }
        if (reference.startsWith("env:")) {
            String name = reference.substring("env:".length());
            return environment
                    .apply(name)
                    .filter(v -> !v.isBlank())
                    .orElseThrow(() -> new InvalidConfigurationException(
                            where, "the environment variable " + name + " is not set"));
        }
        throw new InvalidConfigurationException(where, "must be env:NAME or file:/path");
    }
}
