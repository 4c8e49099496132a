package dev.airlock.gateway.run;

import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.AirlockProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Results the database refused, kept on the replica's disk until they are written: one file per
 * run, written to a temporary name, forced to disk and then renamed, so that a file that exists
 * is whole. Nothing is ever held only in memory; a replica that restarts finds them again.
 */
@Component
class ResultSpool {

    private static final Logger log = LoggerFactory.getLogger(ResultSpool.class);
    private static final String SUFFIX = ".result.json";

    private final Path dir;
    private final JsonMapper json;

    ResultSpool(AirlockProperties properties, AgentSettings settings, JsonMapper json, MeterRegistry meters) {
        Path configured = settings.executor().spoolDir();
        this.dir = (configured != null ? configured : properties.dataDir().resolve("spool"))
                .toAbsolutePath()
                .normalize();
        this.json = json;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the result spool " + dir, e);
        }
        Gauge.builder("airlock.results.spooled", this, ResultSpool::count)
                .description("Results waiting in this replica's spool for the database to take them")
                .register(meters);
    }

    /** How many results wait in the spool; not a number when the spool cannot be listed. */
    private double count() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> runOf(p.getFileName().toString()) != null).count();
        } catch (IOException | UncheckedIOException e) {
            return Double.NaN;
        }
    }

    /** The run whose spooled result a file of this name holds, or null when it holds none. */
    private static @Nullable UUID runOf(String name) {
        if (!name.endsWith(SUFFIX)) {
            return null;
        }
        String stem = name.substring(0, name.length() - SUFFIX.length());
        try {
            UUID runId = UUID.fromString(stem);
            // Only the name this spool gives a run's file (UUID.fromString also takes short forms such as 1-1-1-1-1).
            return runId.toString().equals(stem) ? runId : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Keeps a result on disk until {@link #remove} is called.
     *
     * @throws UncheckedIOException when even the disk refuses it (then the result is lost; this is logged)
     */
    void keep(UUID runId, CaptureResult result) {
        Path target = fileOf(runId);
        Path temporary = dir.resolve(runId + SUFFIX + ".tmp");
        try {
            byte[] bytes = json.writeValueAsBytes(result);
            try (FileChannel channel = FileChannel.open(
                    temporary,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(java.nio.ByteBuffer.wrap(bytes));
                channel.force(true);
            }
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
            try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
                directory.force(true);
            } catch (IOException ignored) {
                // Not every file system lets a directory be forced; the file itself is on disk.
            }
        } catch (IOException e) {
            log.error("Run {}: could not keep its result in the spool {}: {}", runId, dir, e.getMessage());
            throw new UncheckedIOException(e);
        }
    }

    /** The runs whose results wait in the spool. */
    List<UUID> runs() {
        List<UUID> runs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(SUFFIX))
                    .forEach(name -> {
                        UUID runId = runOf(name);
                        if (runId == null) {
                            log.warn("Ignoring a file that is not a spooled result: {}", name);
                        } else {
                            runs.add(runId);
                        }
                    });
        } catch (IOException e) {
            log.error("Cannot list the result spool {}: {}", dir, e.getMessage());
        }
        return runs;
    }

    private Path fileOf(UUID runId) {
        return dir.resolve(runId + SUFFIX);
    }

    /**
     * How long ago the run's result was put in the spool, by its file's time and the host's clock, within zero and
     * {@code limit} (a file from the future, or one gone, is new).
     */
    java.time.Duration age(UUID runId, java.time.Duration limit) {
        try {
            java.time.Duration age = java.time.Duration.between(
                    Files.getLastModifiedTime(fileOf(runId)).toInstant(), java.time.Instant.now());
            return age.isNegative() ? java.time.Duration.ZERO : (age.compareTo(limit) > 0 ? limit : age);
        } catch (IOException e) {
            return java.time.Duration.ZERO;
        }
    }

    /** The spooled result of a run, if there is a readable one. */
    Optional<CaptureResult> read(UUID runId) {
        Path file = fileOf(runId);
        try {
            return Optional.of(json.readValue(Files.readAllBytes(file), CaptureResult.class));
        } catch (IOException | RuntimeException e) {
            log.error("Run {}: cannot read its spooled result {}: {}", runId, file, e.getMessage());
            return Optional.empty();
        }
    }

    /** Forgets a result once it is written. */
    void remove(UUID runId) {
        try {
            Files.deleteIfExists(fileOf(runId));
        } catch (IOException e) {
            log.warn("Run {}: could not remove its spooled result: {}", runId, e.getMessage());
        }
    }
}
