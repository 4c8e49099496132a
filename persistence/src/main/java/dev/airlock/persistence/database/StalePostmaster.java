package dev.airlock.persistence.database;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a PostgreSQL server left running on the data directory by an earlier gateway that did
 * not shut down cleanly (killed, or crashed), so that the embedded server can start again.
 */
final class StalePostmaster {

    private static final Logger log = LoggerFactory.getLogger(StalePostmaster.class);

    private StalePostmaster() {}

    static void stopIfRunning(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.isRegularFile(pidFile)) {
            return;
        }
        Optional<ProcessHandle> postmaster = readPid(pidFile)
                .flatMap(ProcessHandle::of)
                .filter(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(false));
        postmaster.ifPresent(p -> {
            log.warn("Stopping a PostgreSQL server (pid {}) left running on {} by an earlier start", p.pid(), dataDir);
            p.destroy();
            try {
                p.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                log.warn("PostgreSQL pid {} did not stop in 30 s; killing it", p.pid());
                p.destroyForcibly();
            }
        });
    }

    private static Optional<Long> readPid(Path pidFile) {
        try {
            List<String> lines = Files.readAllLines(pidFile);
            return lines.isEmpty()
                    ? Optional.empty()
                    : Optional.of(Long.parseLong(lines.get(0).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
