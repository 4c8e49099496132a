package dev.airlock.gateway.capture;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.persistence.run.SandboxKind;
import dev.airlock.sanitizer.SecretRedactor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the supervisor starts a run's process: in bubblewrap (the default), or directly as the
 * gateway's own user when the sandbox is off. A bubblewrap sandbox is checked when it is made:
 * it must really run a program in its namespaces, or the gateway does not start. Thread-safe.
 */
public final class Sandbox implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Sandbox.class);
    private static final String PACKAGE_HINT =
            "Install the package 'bubblewrap' (apt-get install bubblewrap) and allow "
                    + "unprivileged user namespaces, point airlock.sandbox.bwrap-path at a working bwrap, or set "
                    + "airlock.sandbox.mode=none to run tools without a sandbox (see docs/sandbox.md)";
    private static final String DEFAULT_EXEC_PATH = "/bin:/usr/bin";
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(15);
    private static final List<String> ROOT_ENTRIES = List.of("bin", "sbin", "lib", "lib32", "lib64", "libx32");

    private final SandboxKind kind;
    private final BubblewrapCommand.@Nullable Host host;
    private final WorkArea work;
    private final @Nullable RunCgroups cgroups;

    private Sandbox(
            SandboxKind kind, BubblewrapCommand.@Nullable Host host, WorkArea work, @Nullable RunCgroups cgroups) {
        this.kind = kind;
        this.host = host;
        this.work = work;
        this.cgroups = cgroups;
    }

    /** No sandbox: processes run as the gateway's user with its view of the host. */
    public static Sandbox none(WorkArea work) {
        return new Sandbox(SandboxKind.NONE, null, work, null);
    }

    /**
     * The sandbox the settings ask for, checked by running a program in it.
     *
     * @param settings  {@code airlock.sandbox.*}
     * @param childPath the {@code PATH} runs get ({@code airlock.capture.path}), where {@code prlimit} is looked up
     * @param work      this replica's directory, for working directories and the sandbox's generated files
     * @throws InvalidConfigurationException if bubblewrap is asked for and cannot run a sandbox here
     */
    public static Sandbox of(AgentSettings.Sandbox settings, String childPath, WorkArea work) {
        return of(
                settings, childPath, work, settings.cgroup() == null ? null : RunCgroups.delegated(settings.cgroup()));
    }

    /** As {@link #of(AgentSettings.Sandbox, String, WorkArea)}, with runs placed in cgroups below {@code cgroups} (or not, if null). */
    static Sandbox of(AgentSettings.Sandbox settings, String childPath, WorkArea work, @Nullable RunCgroups cgroups) {
        if (settings.mode() == dev.airlock.kernel.config.SandboxMode.NONE && cgroups != null) {
            throw new InvalidConfigurationException(
                    RunCgroups.KEY,
                    "runs are placed in cgroups only in their sandbox; "
                            + "unset it or set airlock.sandbox.mode to bubblewrap");
        }
        if (settings.mode() == dev.airlock.kernel.config.SandboxMode.NONE) {
            log.warn(
                    "airlock.sandbox.mode is 'none': tools run as the gateway's own user, see its files, processes, "
                            + "environment and network, and have no resource limits. Every envelope says \"sandbox\": \"none\".");
            return none(work);
        }
        try {
            LibC.requireSupported();
        } catch (LibC.Unsupported e) {
            throw new InvalidConfigurationException(
                    "airlock.sandbox.mode", "cannot start sandboxes here: " + e.getMessage() + ". " + PACKAGE_HINT);
        }
        Path bwrap = bwrap(settings.bwrapPath());
        boolean root = WorkArea.currentUid() == 0;
        Path setpriv = null;
        if (root) {
            if (settings.hostUid() <= 0) {
                throw new InvalidConfigurationException(
                        "airlock.sandbox.host-uid", "must be an unprivileged user id, not " + settings.hostUid());
            }
            if (settings.hostGid() <= 0) {
                throw new InvalidConfigurationException(
                        "airlock.sandbox.host-gid", "must be an unprivileged group id, not " + settings.hostGid());
            }
            setpriv = onPath("setpriv", System.getenv("PATH"))
                    .orElseThrow(() -> new InvalidConfigurationException(
                            "airlock.sandbox.mode",
                            "the gateway runs as root, so runs are started as an unprivileged user through "
                                    + "setpriv (package util-linux), which is not on the gateway's PATH. "
                                    + PACKAGE_HINT));
        }
        if (root) {
            requirePassable(work.directory().getParent(), settings.hostUid());
        }
        Path prlimit = inSandbox("prlimit", childPath);
        Path choom = inSandbox("choom", childPath);
        Path etc = generatedEtc(work);
        Sandbox sandbox = new Sandbox(
                SandboxKind.BUBBLEWRAP,
                new BubblewrapCommand.Host(
                        bwrap,
                        setpriv,
                        settings.hostUid(),
                        settings.hostGid(),
                        prlimit,
                        choom,
                        etc,
                        rootLinks(),
                        rootDirs()),
                work,
                cgroups);
        sandbox.probe(childPath, settings.bwrapPath() != null);
        log.info(
                "Sandbox: bubblewrap ({}){}",
                bwrap,
                root
                        ? ", runs start as host user " + settings.hostUid() + ":" + settings.hostGid()
                                + " because the gateway runs as root"
                        : "");
        return sandbox;
    }

    /** What runs are isolated by. */
    public SandboxKind kind() {
        return kind;
    }

    /** This replica's work area. */
    WorkArea work() {
        return work;
    }

    /** Where runs get a cgroup of their own, or null if they do not. */
    @Nullable
    RunCgroups cgroups() {
        return cgroups;
    }

    /**
     * A fresh, empty working directory for one run, in this replica's work area, made the
     * sandbox's own when runs start as another host user. The caller removes it with
     * {@link #removeWorkingDirectory}.
     */
    Path newWorkingDirectory(UUID runId) throws IOException {
        Path dir = work.newDirectory("run-" + runId);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        if (host != null && host.setpriv() != null) {
            Files.setAttribute(dir, "unix:uid", host.hostUid(), LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(dir, "unix:gid", host.hostGid(), LinkOption.NOFOLLOW_LINKS);
        }
        return dir;
    }

    /** Removes a working directory made by {@link #newWorkingDirectory}, without following links. */
    static void removeWorkingDirectory(Path dir) {
        WorkArea.deleteTree(dir);
    }

    /**
     * How to start {@code spec} in {@code workingDir} without a sandbox: the command line, the
     * whole environment and the directory to start it in.
     */
    Launch launchUnsandboxed(ProcessSpec spec, Path workingDir) {
        Map<String, String> environment = new HashMap<>(spec.environment());
        environment.put(ProcessSpec.RUN_ID_VARIABLE, spec.runId().toString());
        return new Launch(spec.argv(), environment, workingDir);
    }

    /**
     * How to start {@code spec} in {@code workingDir} in bubblewrap: the command line, the whole
     * environment, and every path the sandbox mounts beyond the system, opened without following
     * links and handed to bubblewrap by descriptor. The caller closes the result once the process
     * has started.
     *
     * @throws SpawnRefused if the program, or a path the run needs, is not there or is reached through a link
     */
    Prepared prepare(ProcessSpec spec, Path workingDir) throws SpawnRefused {
        BubblewrapCommand.Host host = host();
        Map<String, String> environment = new HashMap<>(spec.environment());
        environment.put(ProcessSpec.RUN_ID_VARIABLE, spec.runId().toString());
        SandboxPolicy policy = spec.sandbox();
        int stranger = host.setpriv() != null ? host.hostUid() : -1;
        List<MountSource> opened = new ArrayList<>();
        try {
            int passwd = open(opened, host.etc().resolve("passwd").toString(), MountSource.Kind.ANY, -1);
            int group = open(opened, host.etc().resolve("group").toString(), MountSource.Kind.ANY, -1);
            List<Integer> readOnly = new ArrayList<>();
            for (String path : policy.readOnlyPaths()) {
                readOnly.add(open(opened, path, MountSource.Kind.ANY, stranger));
            }
            List<Integer> writable = new ArrayList<>();
            for (String path : policy.writablePaths()) {
                writable.add(open(opened, path, MountSource.Kind.ANY, stranger));
            }
            int dir = open(opened, workingDir.toString(), MountSource.Kind.DIRECTORY, stranger);
            String program = program(
                    spec.argv().get(0), environment.getOrDefault("PATH", DEFAULT_EXEC_PATH), policy, workingDir);
            // The status pipe follows the inherited descriptors, then the block pipe.
            int status = FIRST_INHERITED + opened.size();
            BubblewrapCommand.Descriptors fds =
                    new BubblewrapCommand.Descriptors(passwd, group, readOnly, writable, dir, status, status + 1);
            List<String> argv = BubblewrapCommand.argv(
                    host,
                    policy,
                    fds,
                    cgroups != null,
                    workingDir,
                    program,
                    spec.argv().subList(1, spec.argv().size()));
            Prepared prepared = new Prepared(
                    argv, environment, opened.stream().map(MountSource::fd).toList(), List.copyOf(opened));
            opened.clear();
            return prepared;
        } finally {
            opened.forEach(MountSource::close);
        }
    }

    /** The host side of a bubblewrap sandbox; only a bubblewrap sandbox starts processes through it. */
    private BubblewrapCommand.Host host() {
        if (host == null) {
            throw new IllegalStateException("a sandbox of kind " + kind + " does not start bubblewrap");
        }
        return host;
    }

    /** The descriptor a child gets for the first inherited descriptor. */
    private static final int FIRST_INHERITED = 3;

    /** Opens {@code path} and returns the number it will have in the child (they are numbered in the order opened). */
    private static int open(List<MountSource> opened, String path, MountSource.Kind kind, int stranger)
            throws SpawnRefused {
        opened.add(MountSource.open(path, kind, stranger));
        return FIRST_INHERITED + opened.size() - 1;
    }

    /** Releases this replica's work area, and what is left in it. */
    @Override
    public void close() {
        work.close();
    }

    /**
     * The program as a path that is the same file on the host and in the sandbox, found the way
     * {@code execvp} would find it inside: a name with a slash relative to the working directory,
     * otherwise along the run's {@code PATH}.
     */
    private String program(String name, String path, SandboxPolicy policy, Path workingDir) throws SpawnRefused {
        BubblewrapCommand.Host host = host();
        List<Path> candidates = new ArrayList<>();
        if (name.contains("/")) {
            candidates.add(workingDir.resolve(name).normalize());
        } else {
            for (String dir : path.split(":")) {
                if (dir.startsWith("/")) {
                    candidates.add(Path.of(dir).resolve(name).normalize());
                }
            }
        }
        for (Path candidate : candidates) {
            if (BubblewrapCommand.visible(host, policy, workingDir, candidate)
                    && Files.isRegularFile(candidate)
                    && Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new SpawnRefused("cannot start '" + name + "': no such executable in the sandbox");
    }

    /** Runs {@code true} in a sandbox as runs get it; refuses the start if that fails. */
    private void probe(String childPath, boolean bwrapConfigured) {
        BubblewrapCommand.Host host = host();
        String key = bwrapConfigured ? "airlock.sandbox.bwrap-path" : "airlock.sandbox.mode";
        UUID id = UUID.randomUUID();
        Path dir = null;
        try {
            dir = newWorkingDirectory(id);
            ProcessSpec spec = new ProcessSpec(
                    id,
                    "sandbox-check",
                    List.of("true"),
                    dir,
                    Map.of("PATH", childPath),
                    Duration.ofSeconds(5),
                    0,
                    0,
                    SecretRedactor.of(Map.of()),
                    SandboxPolicy.DEFAULTS);
            NativeProcess process;
            try (Prepared prepared = prepare(spec, dir)) {
                process = prepared.start(false);
            }
            // The probe needs no cgroup: let it go at once.
            release(process);
            byte[] output;
            try (InputStream err = process.stderr();
                    InputStream out = process.stdout()) {
                output = err.readNBytes(4096);
            }
            if (!process.waitFor(PROBE_TIMEOUT.toMillis())) {
                ProcessTree.kill(process.pid(), ProcessSpec.RUN_ID_VARIABLE + "=" + id);
                throw new InvalidConfigurationException(
                        key,
                        "bubblewrap at " + host.bwrap() + " did not finish a trivial run in "
                                + PROBE_TIMEOUT.toSeconds() + " s. " + PACKAGE_HINT);
            }
            BubblewrapStatus status = BubblewrapStatus.read(process.output(0));
            process.closeStreams();
            if (process.exitValue() != 0 || !status.commandStarted()) {
                throw new InvalidConfigurationException(
                        key,
                        "bubblewrap at " + host.bwrap() + " cannot run a sandbox here (exit " + process.exitValue()
                                + ": " + printable(output) + "). " + PACKAGE_HINT);
            }
        } catch (SpawnRefused e) {
            throw new InvalidConfigurationException(
                    key, "cannot check the sandbox: " + e.getMessage() + ". " + PACKAGE_HINT);
        } catch (IOException e) {
            throw new InvalidConfigurationException(
                    key, "cannot start bubblewrap at " + host.bwrap() + ": " + e.getMessage() + ". " + PACKAGE_HINT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InvalidConfigurationException(key, "interrupted while checking the sandbox");
        } finally {
            if (dir != null) {
                removeWorkingDirectory(dir);
            }
        }
    }

    /**
     * bubblewrap, running as the sandbox's host user, reaches what it mounts even by descriptor only
     * through directories that user may pass: every directory on the way to the work area must let
     * others (or that user) through.
     */
    private static void requirePassable(@Nullable Path workRoot, int hostUid) {
        for (Path dir = workRoot; dir != null; dir = dir.getParent()) {
            try {
                var attributes = Files.readAttributes(dir, java.nio.file.attribute.PosixFileAttributes.class);
                int owner = (Integer) Files.getAttribute(dir, "unix:uid");
                boolean passable =
                        attributes.permissions().contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)
                                || owner == hostUid
                                        && attributes
                                                .permissions()
                                                .contains(java.nio.file.attribute.PosixFilePermission.OWNER_EXECUTE);
                if (!passable) {
                    throw new InvalidConfigurationException(
                            "airlock.sandbox.work-dir",
                            "the sandbox's host user " + hostUid
                                    + " cannot pass through " + dir + " (mode "
                                    + PosixFilePermissions.toString(attributes.permissions())
                                    + ") on the way to the work area " + workRoot
                                    + "; put the work area where it can, or allow o+x");
                }
            } catch (IOException e) {
                throw new InvalidConfigurationException(
                        "airlock.sandbox.work-dir", "cannot check " + dir + ": " + e.getMessage());
            }
        }
    }

    private static Path bwrap(@Nullable Path configured) {
        if (configured != null) {
            if (!Files.isRegularFile(configured) || !Files.isExecutable(configured)) {
                throw new InvalidConfigurationException(
                        "airlock.sandbox.bwrap-path",
                        "'" + configured + "' is not an executable file. " + PACKAGE_HINT);
            }
            return configured.toAbsolutePath();
        }
        return onPath("bwrap", System.getenv("PATH"))
                .orElseThrow(() -> new InvalidConfigurationException(
                        "airlock.sandbox.mode", "bubblewrap ('bwrap') is not on the gateway's PATH. " + PACKAGE_HINT));
    }

    /** A util-linux program the sandbox runs before the tool: on the run's PATH and under /usr, where the sandbox sees it. */
    private static Path inSandbox(String name, String childPath) {
        return onPath(name, childPath)
                .filter(p -> p.startsWith("/usr"))
                .orElseThrow(() -> new InvalidConfigurationException(
                        "airlock.sandbox.mode",
                        name + " (package util-linux) is not under /usr on " + "airlock.capture.path (" + childPath
                                + "); the sandbox needs it to set up each run. " + PACKAGE_HINT));
    }

    private static Optional<Path> onPath(String name, String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(":")) {
            if (dir.startsWith("/")) {
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /** The sandbox's passwd and group: its one user, so that programs can name it. */
    private static Path generatedEtc(WorkArea work) {
        try {
            Path dir = work.newDirectory("etc");
            int id = BubblewrapCommand.SANDBOX_ID;
            write(
                    dir.resolve("passwd"),
                    "nobody:x:" + id + ":" + id + ":Airlock sandbox:/nonexistent:/usr/sbin/nologin\n");
            write(dir.resolve("group"), "nogroup:x:" + id + ":\n");
            return dir;
        } catch (IOException e) {
            throw new InvalidConfigurationException(
                    "airlock.sandbox.mode", "cannot write the sandbox's passwd and group: " + e.getMessage());
        }
    }

    private static void write(Path file, String content) throws IOException {
        Files.writeString(file, content, StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static TreeMap<String, String> rootLinks() {
        TreeMap<String, String> links = new TreeMap<>();
        for (String name : ROOT_ENTRIES) {
            Path entry = Path.of("/", name);
            if (Files.isSymbolicLink(entry)) {
                try {
                    Path target = Files.readSymbolicLink(entry);
                    if (Path.of("/").resolve(target).normalize().startsWith("/usr")) {
                        links.put(name, target.toString());
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return links;
    }

    private static List<String> rootDirs() {
        return ROOT_ENTRIES.stream()
                .filter(name -> !Files.isSymbolicLink(Path.of("/", name)) && Files.isDirectory(Path.of("/", name)))
                .toList();
    }

    static String printable(byte[] output) {
        StringBuilder text = new StringBuilder();
        for (byte b : output) {
            if (text.length() >= 300) {
                break;
            }
            text.append(b >= 0x20 && b < 0x7f ? (char) b : ' ');
        }
        return text.toString().strip();
    }

    /**
     * How to start one process without a sandbox.
     *
     * @param argv        the command line
     * @param environment its whole environment
     * @param directory   the directory to start it in
     */
    record Launch(List<String> argv, Map<String, String> environment, Path directory) {

        Launch {
            argv = List.copyOf(argv);
            environment = Map.copyOf(environment);
        }
    }

    /**
     * How to start one process in bubblewrap, holding open what it mounts until it has started.
     *
     * @param argv        the command line, bubblewrap's (or setpriv's) absolute path first
     * @param environment its whole environment
     * @param inherited   the descriptors it gets as 3, 4, …, in order
     * @param sources     what those descriptors are, closed by {@link #close()}
     */
    record Prepared(
            List<String> argv, Map<String, String> environment, List<Integer> inherited, List<MountSource> sources)
            implements AutoCloseable {

        Prepared {
            argv = List.copyOf(argv);
            environment = Map.copyOf(environment);
            inherited = List.copyOf(inherited);
            sources = List.copyOf(sources);
        }

        /**
         * Starts bubblewrap as prepared, with its status pipe ({@link NativeProcess#output}) and its
         * block pipe ({@link NativeProcess#input}), on which the sandbox waits, set up, until
         * {@link Sandbox#release} lets the command start; with {@code stdinPipe}, standard input is
         * a pipe too (a server spoken to).
         */
        NativeProcess start(boolean stdinPipe) throws IOException {
            return NativeProcess.start(argv, environment, inherited, 1, 1, stdinPipe);
        }

        @Override
        public void close() {
            sources.forEach(MountSource::close);
        }
    }

    /**
     * Lets a sandbox started from a {@link Prepared} start its command: one byte on its block pipe
     * (closing the pipe alone does not, see {@link NativeProcess#start}). A sandbox that has
     * already ended is left to say so in its status report.
     */
    static void release(NativeProcess process) {
        try (var block = process.input(0)) {
            block.write('1');
        } catch (IOException e) {
            // bubblewrap ended before it was let go: its report says the command never started.
            log.debug("The sandbox {} ended before it was let go: {}", process.pid(), e.getMessage());
        }
    }

    /** The process cannot be started; the message says why, naming no secret. */
    static final class SpawnRefused extends Exception {

        private static final long serialVersionUID = 1L;

        /** The reason, shown to agents and people as the run's failure. */
        SpawnRefused(String message) {
            super(message, null, false, false);
        }
    }
}
