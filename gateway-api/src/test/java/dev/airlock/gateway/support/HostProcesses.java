package dev.airlock.gateway.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The host's processes as {@code /proc} shows them, read by the tests themselves (never through
 * the gateway's own process code), so that a test can see from outside which processes a run
 * had and whether they are gone. Processes are found by an entry of their environment, such as
 * the run's {@code AIRLOCK_RUN_ID=...}, and told apart from a later process with the same pid by
 * their start time.
 */
public final class HostProcesses {

    private static final Path PROC = Path.of("/proc");

    private HostProcesses() {}

    /**
     * One process as seen at one moment.
     *
     * @param pid       its host pid
     * @param startTime its start time in clock ticks since boot (field 22 of {@code stat})
     * @param comm      its command name
     * @param cmdline   its arguments joined by spaces
     */
    public record HostProcess(long pid, long startTime, String comm, String cmdline) {

        /** Whether this very process still runs: not gone, not a zombie, not replaced by another with its pid. */
        public boolean alive() {
            String stat = read(PROC.resolve(Long.toString(pid)).resolve("stat"));
            if (stat == null) {
                return false;
            }
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[19]) == startTime && !fields[0].equals("Z") && !fields[0].equals("X");
        }
    }

    /** Every live process whose environment holds exactly {@code entry} (such as {@code NAME=value}). */
    public static List<HostProcess> withEnvironment(String entry) {
        byte[] needle = entry.getBytes(StandardCharsets.UTF_8);
        List<HostProcess> found = new ArrayList<>();
        try (Stream<Path> entries = Files.list(PROC)) {
            for (Path dir : (Iterable<Path>) entries::iterator) {
                String name = dir.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                byte[] environ;
                try {
                    environ = Files.readAllBytes(dir.resolve("environ"));
                } catch (IOException e) {
                    continue;
                }
                if (!holds(environ, needle)) {
                    continue;
                }
                String stat = read(dir.resolve("stat"));
                String cmdline = read(dir.resolve("cmdline"));
                if (stat == null || cmdline == null) {
                    continue;
                }
                String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                HostProcess process = new HostProcess(
                        Long.parseLong(name),
                        Long.parseLong(fields[19]),
                        comm,
                        cmdline.replace('\0', ' ').strip());
                if (process.alive()) {
                    found.add(process);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc", e);
        }
        return found;
    }

    /**
     * Polls until the processes carrying {@code entry} satisfy {@code until} (at most
     * {@code timeout}), and returns them as they were then.
     */
    public static List<HostProcess> awaitWithEnvironment(
            String entry, Predicate<List<HostProcess>> until, Duration timeout) {
        return org.awaitility.Awaitility.await("processes with " + entry)
                .atMost(timeout)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> withEnvironment(entry), until::test);
    }

    /** A condition on a set of processes: one of them is a {@code sleep} with these arguments. */
    public static Predicate<List<HostProcess>> sleeping(String arguments) {
        return processes -> processes.stream()
                .anyMatch(p -> p.comm().equals("sleep") && p.cmdline().endsWith("sleep " + arguments));
    }

    /**
     * The processes of {@code processes} that still run, each with its {@code stat} line now (its
     * state and parent), for a failure message.
     */
    public static List<String> stillAlive(List<HostProcess> processes) {
        return processes.stream()
                .filter(HostProcess::alive)
                .map(p -> p + " stat: "
                        + read(PROC.resolve(Long.toString(p.pid())).resolve("stat")))
                .toList();
    }

    private static boolean holds(byte[] environ, byte[] needle) {
        int start = 0;
        for (int i = 0; i <= environ.length; i++) {
            if (i == environ.length || environ[i] == 0) {
                if (Arrays.equals(environ, start, i, needle, 0, needle.length)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }
}
