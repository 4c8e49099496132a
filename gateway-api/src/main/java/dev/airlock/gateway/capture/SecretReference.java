package dev.airlock.gateway.capture;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * Where the gateway finds one secret's value: an environment variable of its own
 * ({@code env:NAME}, or just {@code NAME}) or a file ({@code file:/path}, such as a mounted
 * Kubernetes Secret), read when a run starts. Nothing here ever puts a value in a message.
 *
 * @param kind   environment variable or file
 * @param target the variable's name or the file's absolute path
 */
public record SecretReference(Kind kind, String target) {

    /** The largest secret file read. */
    public static final int MAX_FILE_BYTES = 64 * 1024;

    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    /** Where a secret comes from. */
    public enum Kind {
        /** An environment variable of the gateway. */
        ENV,
        /** A file the gateway can read. */
        FILE
    }

    public SecretReference {
        switch (kind) {
            case ENV -> {
                if (!ENV_NAME.matcher(target).matches()) {
                    throw new IllegalArgumentException("'" + target + "' is not an environment variable name");
                }
            }
            case FILE -> {
                String problem = SandboxPolicy.mountProblem(target);
                if (problem != null) {
                    throw new IllegalArgumentException("file: " + problem);
                }
            }
        }
    }

    /**
     * Parses {@code env:NAME}, {@code file:/absolute/path} or a plain {@code NAME} (meaning
     * {@code env:NAME}, as configurations written before file sources existed say).
     *
     * @throws IllegalArgumentException if it is none of these
     */
    public static SecretReference parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("must be set");
        }
        if (text.startsWith("file:")) {
            return new SecretReference(Kind.FILE, text.substring("file:".length()));
        }
        return new SecretReference(Kind.ENV, text.startsWith("env:") ? text.substring("env:".length()) : text);
    }

    /** The file the value is read from, for a {@code file:} source. */
    public java.util.Optional<Path> file() {
        return kind == Kind.FILE ? java.util.Optional.of(Path.of(target)) : java.util.Optional.empty();
    }

    /** The value, read now. */
    public String read(SecretSource environment) throws SecretUnavailable {
        return switch (kind) {
            case ENV ->
                environment
                        .find(target)
                        .orElseThrow(() -> new SecretUnavailable("gateway variable " + target + " is not set"));
            case FILE -> readFile(Path.of(target));
        };
    }

    /** What a message may name: the variable or the file, never the value. */
    public String describe() {
        return kind == Kind.ENV ? "gateway variable " + target : "file " + target;
    }

    private String readFile(Path file) throws SecretUnavailable {
        byte[] bytes;
        try {
            if (Files.isDirectory(file)) {
                throw new SecretUnavailable("file " + target + " is a directory");
            }
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            }
        } catch (NoSuchFileException e) {
            throw new SecretUnavailable("file " + target + " does not exist");
        } catch (AccessDeniedException e) {
            throw new SecretUnavailable("file " + target + " cannot be read: permission denied");
        } catch (IOException e) {
            throw new SecretUnavailable(
                    "file " + target + " cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (bytes.length > MAX_FILE_BYTES) {
            Arrays.fill(bytes, (byte) 0);
            throw new SecretUnavailable("file " + target + " is larger than " + MAX_FILE_BYTES + " bytes");
        }
        int end = bytes.length;
        if (end > 0 && bytes[end - 1] == '\n') {
            end--;
            if (end > 0 && bytes[end - 1] == '\r') {
                end--;
            }
        }
        byte[] value = Arrays.copyOf(bytes, end);
        Arrays.fill(bytes, (byte) 0);
        if (value.length == 0) {
            throw new SecretUnavailable("file " + target + " is empty");
        }
        for (byte b : value) {
            if (b == 0) {
                throw new SecretUnavailable("file " + target + " contains a NUL byte");
            }
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new SecretUnavailable("file " + target + " is not valid UTF-8");
        } finally {
            Arrays.fill(value, (byte) 0);
        }
    }

    /** The secret's value cannot be had; the message names its source, never a value. */
    public static final class SecretUnavailable extends Exception {

        private static final long serialVersionUID = 1L;

        SecretUnavailable(String message) {
            super(message, null, false, false);
        }
    }
}
