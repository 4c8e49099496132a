package dev.airlock.gateway.capture;

import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One tool's sandbox: what its runs may reach beyond their working directory and the resource
 * limits each run gets. Recorded with the tool's definition, so a run executes under the
 * settings it was requested under. Applies only in the {@code bubblewrap} sandbox mode.
 *
 * @param network           whether runs share the host's network (otherwise only a loopback of their own)
 * @param readOnlyPaths     absolute host paths mounted read-only at the same place
 * @param writablePaths     absolute host paths mounted read-write at the same place
 * @param maxProcesses      processes of a run at once, the sandbox's own init included (RLIMIT_NPROC)
 * @param maxMemoryBytes    memory of the run: its cgroup's memory.max, or without a cgroup each process's address space (RLIMIT_AS)
 * @param maxFileSizeBytes  the largest file a process may write (RLIMIT_FSIZE)
 * @param maxOpenFiles      open files of each process (RLIMIT_NOFILE)
 * @param tmpSizeBytes      the size of the run's private {@code /tmp} and of its {@code /dev/shm}
 */
public record SandboxPolicy(
        boolean network,
        List<String> readOnlyPaths,
        List<String> writablePaths,
        int maxProcesses,
        long maxMemoryBytes,
        long maxFileSizeBytes,
        int maxOpenFiles,
        long tmpSizeBytes) {

    /** The settings of a tool that configures none; the same as the configuration's defaults. */
    public static final SandboxPolicy DEFAULTS =
            new SandboxPolicy(false, List.of(), List.of(), 256, 1L << 30, 1L << 30, 1024, 256L << 20);

    public SandboxPolicy {
        readOnlyPaths = List.copyOf(readOnlyPaths);
        writablePaths = List.copyOf(writablePaths);
        for (String path : readOnlyPaths) {
            requireMountable(path);
        }
        for (String path : writablePaths) {
            requireMountable(path);
            if (readOnlyPaths.contains(path)) {
                throw new IllegalArgumentException(path + " is both read-only and writable");
            }
        }
        if (maxProcesses < 2) {
            throw new IllegalArgumentException("max-processes must be at least 2 (the sandbox's init and the tool)");
        }
        if (maxMemoryBytes <= 0 || maxFileSizeBytes <= 0 || maxOpenFiles <= 0 || tmpSizeBytes <= 0) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }

    /**
     * Why {@code path} cannot be mounted into a sandbox, or null if it can: it must be absolute,
     * normalized (no {@code .} or {@code ..}), not the root and free of NUL.
     */
    public static @Nullable String mountProblem(@Nullable String path) {
        if (path == null || path.isEmpty() || path.indexOf('\0') >= 0) {
            return "must be an absolute path";
        }
        Path p;
        try {
            p = Path.of(path);
        } catch (RuntimeException e) {
            return "must be an absolute path";
        }
        if (!p.isAbsolute()) {
            return "must be an absolute path, not '" + path + "'";
        }
        if (!p.normalize().toString().equals(path)) {
            return "must be a normalized path (no '.', '..', doubled or trailing '/'), not '" + path + "'";
        }
        if (p.getNameCount() == 0) {
            return "must not be the root directory";
        }
        return null;
    }

    private static void requireMountable(String path) {
        String problem = mountProblem(path);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }
}
