package dev.airlock.gateway.capture;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cgroup v2 per run, below a directory the host delegated to the gateway
 * ({@code airlock.sandbox.cgroup}): {@code memory.max} bounds the memory of the whole run (every
 * process together, shared mappings and {@code /dev/shm} included), {@code memory.swap.max} keeps
 * it out of swap (a host with swap but without it is refused), {@code pids.max} bounds its processes, and {@code memory.oom.group} makes the
 * kernel take the whole run when it goes over. The sandbox's init is placed in it before the
 * tool starts (bubblewrap waits on {@code --block-fd} until it is), so everything the tool starts
 * is in it. After the run, {@code memory.events} tells whether the kernel killed it for memory.
 * Thread-safe.
 */
final class RunCgroups {

    private static final Logger log = LoggerFactory.getLogger(RunCgroups.class);
    static final String KEY = "airlock.sandbox.cgroup";
    private static final List<String> CONTROLLERS = List.of("memory", "pids");

    private final Path root;
    /** Whether the kernel accounts swap here (the delegated cgroup has memory.swap.max): every run's must then be set. */
    private final boolean swapAccounted;

    private RunCgroups(Path root, boolean swapAccounted) {
        this.root = root;
        this.swapAccounted = swapAccounted;
    }

    /**
     * The delegated cgroup {@code root}, checked and prepared: it must be a directory of a cgroup v2
     * file system (as {@code /proc/self/mountinfo} lists them) that offers the memory and pids
     * controllers, holds no process of its own, and lets the gateway enable both for the runs below it.
     *
     * @throws InvalidConfigurationException naming {@code airlock.sandbox.cgroup} if any of that fails
     */
    static RunCgroups delegated(Path root) {
        Path absolute = root.toAbsolutePath().normalize();
        if (!onCgroup2(absolute)) {
            throw new InvalidConfigurationException(
                    KEY,
                    absolute + " is not on a cgroup v2 file system (see docs/sandbox.md,"
                            + " \"Memory: a cgroup per run\")");
        }
        return prepared(absolute);
    }

    /** {@link #delegated} without the file-system check, for a tree whose files stand in for the kernel's. */
    static RunCgroups prepared(Path root) {
        return prepared(root, hostHasSwap());
    }

    /** As {@link #prepared(Path)}, on a host that has swap or not. */
    static RunCgroups prepared(Path root, boolean hostSwap) {
        try {
            Set<String> offered =
                    Set.of(read(root.resolve("cgroup.controllers")).split("\\s+"));
            for (String controller : CONTROLLERS) {
                if (!offered.contains(controller)) {
                    throw new InvalidConfigurationException(
                            KEY,
                            root + " does not offer the " + controller + " controller (cgroup.controllers: "
                                    + String.join(" ", offered) + "); delegate it from the parent");
                }
            }
            if (!read(root.resolve("cgroup.procs")).isBlank()) {
                throw new InvalidConfigurationException(
                        KEY,
                        root + " holds processes of its own; a cgroup that hands "
                                + "controllers to its children may not: move the gateway into a sibling or child cgroup first");
            }
            boolean swapAccounted = Files.exists(root.resolve("memory.swap.max"));
            if (hostSwap && !swapAccounted) {
                throw new InvalidConfigurationException(
                        KEY,
                        root + " has no memory.swap.max (the kernel does not account swap to cgroups) and this host"
                                + " has swap: a run's memory could go to swap past its memory.max without bound;"
                                + " turn swap accounting on, or swap off");
            }
            Set<String> enabled =
                    Set.of(read(root.resolve("cgroup.subtree_control")).split("\\s+"));
            for (String controller : CONTROLLERS) {
                if (!enabled.contains(controller)) {
                    Files.writeString(
                            root.resolve("cgroup.subtree_control"), "+" + controller, StandardCharsets.US_ASCII);
                }
            }
            return new RunCgroups(root, swapAccounted);
        } catch (IOException e) {
            throw new InvalidConfigurationException(KEY, "cannot use " + root + " for runs: " + e.getMessage());
        }
    }

    /** A new cgroup for one run, limited as {@code policy} says. */
    RunCgroup create(UUID runId, SandboxPolicy policy) throws IOException {
        Path dir = Files.createDirectories(root.resolve("run-" + runId));
        RunCgroup cgroup = new RunCgroup(dir);
        try {
            write(dir.resolve("memory.max"), Long.toString(policy.maxMemoryBytes()));
            if (swapAccounted) {
                write(dir.resolve("memory.swap.max"), "0");
            } else {
                writeIfPresent(dir.resolve("memory.swap.max"), "0");
            }
            writeIfPresent(dir.resolve("memory.oom.group"), "1");
            write(dir.resolve("pids.max"), Integer.toString(policy.maxProcesses()));
            return cgroup;
        } catch (IOException e) {
            cgroup.remove();
            throw e;
        }
    }

    /** One run's cgroup. */
    static final class RunCgroup {

        private final Path dir;

        private RunCgroup(Path dir) {
            this.dir = dir;
        }

        /** Moves the process {@code pid} (with the threads it has) into this cgroup. */
        void place(long pid) throws IOException {
            write(dir.resolve("cgroup.procs"), Long.toString(pid));
        }

        /** Whether the kernel killed a process of the run because the run reached {@code memory.max}. */
        boolean killedForMemory() {
            try {
                for (String line : read(dir.resolve("memory.events")).split("\n")) {
                    String[] field = line.strip().split("\\s+");
                    if (field.length == 2
                            && (field[0].equals("oom_kill") || field[0].equals("oom_group_kill"))
                            && !field[1].equals("0")) {
                        return true;
                    }
                }
            } catch (IOException e) {
                log.warn("Cannot read {}: {}", dir.resolve("memory.events"), e.getMessage());
            }
            return false;
        }

        /** Kills what is left in it and removes it. */
        void remove() {
            try {
                writeIfPresent(dir.resolve("cgroup.kill"), "1");
            } catch (IOException e) {
                log.warn("Cannot kill what is left in {}: {}", dir, e.getMessage());
            }
            for (int attempt = 0; attempt < 50; attempt++) {
                try {
                    // A cgroup directory is removed with its control files, by rmdir.
                    Files.deleteIfExists(dir);
                    return;
                } catch (java.nio.file.DirectoryNotEmptyException e) {
                    log.warn("{} is not a cgroup (it keeps files of its own); left in place", dir);
                    return;
                } catch (IOException e) {
                    // The kernel removes a cgroup only once its last process has gone.
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
            log.warn("Cannot remove the run cgroup {}", dir);
        }
    }

    /** Whether {@code path} lies on a mount of type cgroup2, by the mount table. */
    static boolean onCgroup2(Path path) {
        try {
            Path best = null;
            String bestType = null;
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
                String[] halves = line.split(" - ", 2);
                String[] fields = halves[0].split(" ");
                if (halves.length < 2 || fields.length < 5) {
                    continue;
                }
                Path mountPoint = Path.of(fields[4].replace("\\040", " "));
                if (path.startsWith(mountPoint) && (best == null || mountPoint.getNameCount() >= best.getNameCount())) {
                    best = mountPoint;
                    bestType = halves[1].split(" ")[0];
                }
            }
            return "cgroup2".equals(bestType);
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the host has swap space, by {@code /proc/meminfo}; when it cannot be read, that it has. */
    static boolean hostHasSwap() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("SwapTotal:")) {
                    return !line.substring("SwapTotal:".length()).strip().startsWith("0 ");
                }
            }
        } catch (IOException e) {
            log.warn("Cannot read /proc/meminfo: {}", e.getMessage());
        }
        return true;
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.US_ASCII).strip();
    }

    private static void write(Path file, String value) throws IOException {
        Files.writeString(file, value, StandardCharsets.US_ASCII);
    }

    private static void writeIfPresent(Path file, String value) throws IOException {
        if (Files.exists(file)) {
            write(file, value);
        }
    }
}
