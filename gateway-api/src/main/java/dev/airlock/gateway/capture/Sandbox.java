package dev.airlock.gateway.capture;

import dev.airlock.persistence.config.AirlockProperties;
import dev.airlock.persistence.config.InvalidConfigurationException;
import dev.airlock.persistence.run.SandboxKind;
import dev.airlock.sanitizer.SecretRedactor;
import java.io.File;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the supervisor starts a run's process: in bubblewrap (the default), or directly as the
 * gateway's own user when the sandbox is off. A bubblewrap sandbox is checked when it is made:
 * it must really run a program in its namespaces, or the gateway does not start. Thread-safe.
 */
public final class Sandbox implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Sandbox.class);
    private static final String PACKAGE_HINT = "Install the package 'bubblewrap' (apt-get install bubblewrap) and allow "
            + "unprivileged user namespaces, point airlock.sandbox.bwrap-path at a working bwrap, or set "
            + "airlock.sandbox.mode=none to run tools without a sandbox (see docs/sandbox.md)";
    private static final String DEFAULT_EXEC_PATH = "/bin:/usr/bin";
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(15);
    private static final List<String> ROOT_ENTRIES = List.of("bin", "sbin", "lib", "lib32", "lib64", "libx32");

    private final SandboxKind kind;
    private final BubblewrapCommand.Host host;

    private Sandbox(SandboxKind kind, BubblewrapCommand.Host host) {
        this.kind = kind;
        this.host = host;
    }

    /** No sandbox: processes run as the gateway's user with its view of the host. */
    public static Sandbox none() {
        return new Sandbox(SandboxKind.NONE, null);
    }

    /**
     * The sandbox the settings ask for, checked by running a program in it.
     *
     * @param settings  {@code airlock.sandbox.*}
     * @param childPath the {@code PATH} runs get ({@code airlock.capture.path}), where {@code prlimit} is looked up
     * @throws InvalidConfigurationException if bubblewrap is asked for and cannot run a sandbox here
     */
    public static Sandbox of(AirlockProperties.Sandbox settings, String childPath) {
        if (settings.mode() == SandboxKind.NONE) {
            log.warn("airlock.sandbox.mode is 'none': tools run as the gateway's own user, see its files, processes, "
                    + "environment and network, and have no resource limits. Every envelope says \"sandbox\": \"none\".");
            return none();
        }
        Path bwrap = bwrap(settings.bwrapPath());
        boolean root = gatewayIsRoot();
        Path setpriv = null;
        if (root) {
            if (settings.hostUid() <= 0) {
                throw new InvalidConfigurationException("airlock.sandbox.host-uid", "must be an unprivileged user id, not "
                        + settings.hostUid());
            }
            if (settings.hostGid() <= 0) {
                throw new InvalidConfigurationException("airlock.sandbox.host-gid", "must be an unprivileged group id, not "
                        + settings.hostGid());
            }
            setpriv = onPath("setpriv", System.getenv("PATH")).orElseThrow(() -> new InvalidConfigurationException(
                    "airlock.sandbox.mode", "the gateway runs as root, so runs are started as an unprivileged user through "
                            + "setpriv (package util-linux), which is not on the gateway's PATH. " + PACKAGE_HINT));
        }
        Path prlimit = inSandbox("prlimit", childPath);
        Path choom = inSandbox("choom", childPath);
        Path etc = generatedEtc();
        Sandbox sandbox = new Sandbox(SandboxKind.BUBBLEWRAP, new BubblewrapCommand.Host(bwrap, setpriv, settings.hostUid(),
                settings.hostGid(), prlimit, choom, etc, rootLinks(), rootDirs()));
        try {
            sandbox.probe(childPath, settings.bwrapPath() != null);
        } catch (RuntimeException e) {
            sandbox.close();
            throw e;
        }
        log.info("Sandbox: bubblewrap ({}){}", bwrap, root
                ? ", runs start as host user " + settings.hostUid() + ":" + settings.hostGid() + " because the gateway runs as root"
                : "");
        return sandbox;
    }

    /** What runs are isolated by. */
    public SandboxKind kind() {
        return kind;
    }

    /**
     * How to start {@code spec} in {@code workingDir}: the command line, the whole environment and
     * the directory to start it in.
     *
     * @throws SpawnRefused if the program or a path the run needs is not there
     */
    Launch launch(ProcessSpec spec, Path workingDir) throws SpawnRefused {
        Map<String, String> environment = new HashMap<>(spec.environment());
        environment.put(ProcessSpec.RUN_ID_VARIABLE, spec.runId().toString());
        if (kind == SandboxKind.NONE) {
            return new Launch(spec.argv(), environment, workingDir);
        }
        SandboxPolicy policy = spec.sandbox();
        for (String path : concat(policy.readOnlyPaths(), policy.writablePaths())) {
            if (!Files.exists(Path.of(path))) {
                throw new SpawnRefused("sandbox path " + path + " does not exist");
            }
        }
        String program = program(spec.argv().get(0), environment.getOrDefault("PATH", DEFAULT_EXEC_PATH), policy, workingDir);
        return new Launch(BubblewrapCommand.argv(host, policy, workingDir, program, spec.argv().subList(1, spec.argv().size())),
                environment, Path.of("/"));
    }

    /** Makes a fresh working directory the sandbox's own (when runs start as another host user). */
    void adopt(Path workingDir) throws IOException {
        if (host != null && host.setpriv() != null) {
            Files.setAttribute(workingDir, "unix:uid", host.hostUid(), LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(workingDir, "unix:gid", host.hostGid(), LinkOption.NOFOLLOW_LINKS);
        }
    }

    @Override
    public void close() {
        if (host != null) {
            deleteTree(host.etc());
        }
    }

    /**
     * The program as a path that is the same file on the host and in the sandbox, found the way
     * {@code execvp} would find it inside: a name with a slash relative to the working directory,
     * otherwise along the run's {@code PATH}.
     */
    private String program(String name, String path, SandboxPolicy policy, Path workingDir) throws SpawnRefused {
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
            if (BubblewrapCommand.visible(host, policy, workingDir, candidate) && Files.isRegularFile(candidate)
                    && Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new SpawnRefused("cannot start '" + name + "': no such executable in the sandbox");
    }

    /** Runs {@code true} in a sandbox as runs get it; refuses the start if that fails. */
    private void probe(String childPath, boolean bwrapConfigured) {
        String key = bwrapConfigured ? "airlock.sandbox.bwrap-path" : "airlock.sandbox.mode";
        Path dir = null;
        try {
            dir = Files.createTempDirectory("airlock-sandbox-check-");
            adopt(dir);
            ProcessSpec spec = new ProcessSpec(UUID.randomUUID(), "sandbox-check", List.of("true"), dir,
                    Map.of("PATH", childPath), Duration.ofSeconds(5), 0, 0, SecretRedactor.of(Map.of()),
                    SandboxPolicy.DEFAULTS);
            Launch launch = launch(spec, dir);
            ProcessBuilder builder = new ProcessBuilder(launch.argv()).directory(launch.directory().toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).redirectErrorStream(true);
            builder.environment().clear();
            builder.environment().putAll(launch.environment());
            Process process = Spawner.start(builder);
            byte[] output;
            try (InputStream in = process.getInputStream()) {
                output = in.readNBytes(4096);
            }
            if (!process.waitFor(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new InvalidConfigurationException(key, "bubblewrap at " + host.bwrap() + " did not finish a trivial run in "
                        + PROBE_TIMEOUT.toSeconds() + " s. " + PACKAGE_HINT);
            }
            if (process.exitValue() != 0) {
                throw new InvalidConfigurationException(key, "bubblewrap at " + host.bwrap() + " cannot run a sandbox here (exit "
                        + process.exitValue() + ": " + printable(output) + "). " + PACKAGE_HINT);
            }
        } catch (SpawnRefused e) {
            throw new InvalidConfigurationException(key, "cannot check the sandbox: " + e.getMessage() + ". " + PACKAGE_HINT);
        } catch (IOException e) {
            throw new InvalidConfigurationException(key, "cannot start bubblewrap at " + host.bwrap() + ": " + e.getMessage()
                    + ". " + PACKAGE_HINT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InvalidConfigurationException(key, "interrupted while checking the sandbox");
        } finally {
            if (dir != null) {
                deleteTree(dir);
            }
        }
    }

    private static Path bwrap(Path configured) {
        if (configured != null) {
            if (!Files.isRegularFile(configured) || !Files.isExecutable(configured)) {
                throw new InvalidConfigurationException("airlock.sandbox.bwrap-path", "'" + configured
                        + "' is not an executable file. " + PACKAGE_HINT);
            }
            return configured.toAbsolutePath();
        }
        return onPath("bwrap", System.getenv("PATH")).orElseThrow(() -> new InvalidConfigurationException(
                "airlock.sandbox.mode", "bubblewrap ('bwrap') is not on the gateway's PATH. " + PACKAGE_HINT));
    }

    /** A util-linux program the sandbox runs before the tool: on the run's PATH and under /usr, where the sandbox sees it. */
    private static Path inSandbox(String name, String childPath) {
        return onPath(name, childPath).filter(p -> p.startsWith("/usr")).orElseThrow(() ->
                new InvalidConfigurationException("airlock.sandbox.mode", name + " (package util-linux) is not under /usr on "
                        + "airlock.capture.path (" + childPath + "); the sandbox needs it to set up each run. " + PACKAGE_HINT));
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

    private static boolean gatewayIsRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            throw new InvalidConfigurationException("airlock.sandbox.mode", "bubblewrap needs Linux with /proc ("
                    + e.getMessage() + "). " + PACKAGE_HINT);
        }
    }

    /** The sandbox's passwd and group: its one user, so that programs can name it. */
    private static Path generatedEtc() {
        try {
            Path dir = Files.createTempDirectory("airlock-sandbox-etc-");
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            int id = BubblewrapCommand.SANDBOX_ID;
            write(dir.resolve("passwd"), "nobody:x:" + id + ":" + id + ":Airlock sandbox:/nonexistent:/usr/sbin/nologin\n");
            write(dir.resolve("group"), "nogroup:x:" + id + ":\n");
            return dir;
        } catch (IOException e) {
            throw new InvalidConfigurationException("airlock.sandbox.mode", "cannot write the sandbox's passwd and group: "
                    + e.getMessage());
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

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static String printable(byte[] output) {
        StringBuilder text = new StringBuilder();
        for (byte b : output) {
            if (text.length() >= 300) {
                break;
            }
            text.append(b >= 0x20 && b < 0x7f ? (char) b : ' ');
        }
        return text.toString().strip();
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            log.warn("Could not remove {}: {}", dir, e.getMessage());
        }
    }

    /**
     * How to start one process.
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

    /** The process cannot be started; the message says why, naming no secret. */
    static final class SpawnRefused extends Exception {

        private static final long serialVersionUID = 1L;

        SpawnRefused(String message) {
            super(message, null, false, false);
        }
    }
}
