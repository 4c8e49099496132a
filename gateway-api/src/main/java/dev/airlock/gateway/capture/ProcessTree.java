package dev.airlock.gateway.capture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Kills every process of a run: the descendants of its process, deepest first, then the process,
 * then any process still carrying the run's {@code AIRLOCK_RUN_ID} in its environment (on Linux,
 * from {@code /proc}), which catches children that were reparented when their parent exited.
 */
final class ProcessTree {

    private static final Path PROC = Path.of("/proc");

    private ProcessTree() {
    }

    /** Kills {@code root} and everything below it, then whatever else carries {@code marker}. */
    static void kill(ProcessHandle root, String marker) {
        List<ProcessHandle> descendants = new ArrayList<>(root.descendants().toList());
        descendants.sort(Comparator.comparingInt(ProcessTree::depth).reversed());
        descendants.forEach(ProcessHandle::destroyForcibly);
        root.destroyForcibly();
        killMarked(marker);
    }

    /**
     * Kills every process whose environment holds {@code marker} (an entry such as
     * {@code AIRLOCK_RUN_ID=...}); returns how many it found.
     */
    static int killMarked(String marker) {
        if (!Files.isDirectory(PROC)) {
            return 0;
        }
        byte[] needle = (marker + "\0").getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        int killed = 0;
        try (Stream<Path> entries = Files.list(PROC)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                String name = entry.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit) || Long.parseLong(name) == self) {
                    continue;
                }
                byte[] environ;
                try {
                    environ = Files.readAllBytes(entry.resolve("environ"));
                } catch (IOException | SecurityException e) {
                    continue;
                }
                if (contains(environ, needle)) {
                    ProcessHandle.of(Long.parseLong(name)).ifPresent(ProcessHandle::destroyForcibly);
                    killed++;
                }
            }
        } catch (IOException e) {
            return killed;
        }
        return killed;
    }

    private static boolean contains(byte[] environ, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= environ.length; i++) {
            if (i > 0 && environ[i - 1] != 0) {
                continue;
            }
            for (int j = 0; j < needle.length; j++) {
                if (environ[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static int depth(ProcessHandle handle) {
        int depth = 0;
        for (ProcessHandle p = handle; p.parent().isPresent() && depth < 1000; p = p.parent().get()) {
            depth++;
        }
        return depth;
    }
}
