package dev.airlock.gateway.capture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kills every process of a run: the descendants of its process, deepest first, then the process,
 * then any process still carrying the run's {@code AIRLOCK_RUN_ID} in its environment (on Linux,
 * from {@code /proc}), which catches children that were reparented when their parent exited. In
 * a bubblewrap sandbox the descendants include the sandbox's init, whose death ends its whole
 * PID namespace. A killed process can take a moment to go (an init tears down its namespace
 * first), so callers wait for what was killed with {@link #awaitGone}.
 */
final class ProcessTree {

    private static final Logger log = LoggerFactory.getLogger(ProcessTree.class);

    private static final Path PROC = Path.of("/proc");
    private static final java.util.concurrent.atomic.AtomicLong SWEEPS = new java.util.concurrent.atomic.AtomicLong();

    private ProcessTree() {}

    /**
     * One process as it was when it was signalled.
     *
     * @param pid       its pid
     * @param startTime its start time from {@code /proc/<pid>/stat}, to tell it from a later process with its pid
     */
    record Member(long pid, long startTime) {}

    /**
     * Kills the process {@code pid} and everything below it, then whatever else carries
     * {@code marker}; returns what it signalled.
     */
    static List<Member> kill(long pid, String marker) {
        List<Member> killed = new ArrayList<>();
        ProcessHandle.of(pid).ifPresent(root -> {
            root.descendants()
                    .map(handle -> new Ranked(handle, depth(handle)))
                    .sorted(Comparator.comparingInt(Ranked::depth).reversed())
                    .forEach(ranked -> signal(ranked.handle(), killed));
            signal(root, killed);
        });
        killed.addAll(killMarked(marker));
        return killed;
    }

    /** How many sweeps of {@code /proc} ({@link #killMarked}) this process has made: each reads every process's environment. */
    static long sweeps() {
        return SWEEPS.get();
    }

    /**
     * Kills every process whose environment holds {@code marker} (an entry such as
     * {@code AIRLOCK_RUN_ID=...}); returns what it signalled.
     */
    static List<Member> killMarked(String marker) {
        SWEEPS.incrementAndGet();
        List<Member> killed = new ArrayList<>();
        if (!Files.isDirectory(PROC)) {
            return killed;
        }
        byte[] needle = (marker + "\0").getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
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
                    ProcessHandle.of(Long.parseLong(name)).ifPresent(handle -> signal(handle, killed));
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // A directory entry that could not be read ends the sweep with what it found (the PID namespace and
            // the tree's kill are the other layers).
            log.warn("The sweep for {} could not read all of /proc: {}", marker, e.toString());
            return killed;
        }
        return killed;
    }

    /**
     * Kills {@code pid} if it is the init of a PID namespace below this one (its {@code NSpid}
     * in {@code /proc/<pid>/status} names it 1 in its own namespace), which takes every process of
     * that namespace with it; true if it was signalled. A process that is not such an init (its pid
     * reused by another) is left alone.
     */
    static boolean killNamespaceInit(long pid) {
        String status;
        try {
            status = Files.readString(PROC.resolve(Long.toString(pid)).resolve("status"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return false;
        }
        for (String line : status.split("\n")) {
            if (line.startsWith("NSpid:")) {
                String[] pids = line.substring("NSpid:".length()).trim().split("\\s+");
                if (pids.length >= 2 && pids[pids.length - 1].equals("1")) {
                    return ProcessHandle.of(pid)
                            .map(ProcessHandle::destroyForcibly)
                            .orElse(false);
                }
                return false;
            }
        }
        return false;
    }

    /**
     * Waits until the process {@code pid}, as it is now, has gone (ended, or a zombie waiting to be
     * reaped), at most {@code timeout}; true if it went or was gone already.
     */
    static boolean awaitGone(long pid, Duration timeout) throws InterruptedException {
        long startTime = startTime(pid);
        return startTime < 0 || awaitGone(List.of(new Member(pid, startTime)), timeout);
    }

    /**
     * Waits until every process of {@code members} has gone (ended, or a zombie waiting to be
     * reaped), at most {@code timeout}; true if they all went.
     */
    static boolean awaitGone(Collection<Member> members, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = 1;
        while (members.stream().anyMatch(ProcessTree::running)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(pause);
            pause = Math.min(pause * 2, 50);
        }
        return true;
    }

    private static void signal(ProcessHandle handle, List<Member> killed) {
        long startTime = startTime(handle.pid());
        if (startTime >= 0 && handle.destroyForcibly()) {
            killed.add(new Member(handle.pid(), startTime));
        }
    }

    private static boolean running(Member member) {
        String[] fields = stat(member.pid());
        return fields != null
                && Long.parseLong(fields[19]) == member.startTime()
                && !fields[0].equals("Z")
                && !fields[0].equals("X");
    }

    private static long startTime(long pid) {
        String[] fields = stat(pid);
        return fields == null ? -1 : Long.parseLong(fields[19]);
    }

    /** The fields of {@code /proc/<pid>/stat} after the command name (state first), or null if it is gone. */
    private static String @Nullable [] stat(long pid) {
        try {
            String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.UTF_8);
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        } catch (IOException | RuntimeException e) {
            return null;
        }
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

    private record Ranked(ProcessHandle handle, int depth) {}

    /**
     * How many ancestors {@code handle} has now (at most 1,000). Each parent is asked for once: a process may end
     * between two questions, so one that was present may be gone at the next.
     */
    static int depth(ProcessHandle handle) {
        int depth = 0;
        Optional<ProcessHandle> parent = handle.parent();
        while (parent.isPresent() && depth < 1000) {
            depth++;
            parent = parent.get().parent();
        }
        return depth;
    }
}
