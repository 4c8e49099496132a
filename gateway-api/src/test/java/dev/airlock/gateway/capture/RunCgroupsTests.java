package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.SandboxMode;
import dev.airlock.persistence.run.Termination;
import dev.airlock.sanitizer.SecretRedactor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs in a cgroup of their own, against a directory whose files stand in for a delegated cgroup
 * v2 tree (these machines mount cgroup v1, so the kernel's side, {@code memory.max} enforcing, is
 * not exercised here): what the run's cgroup is given, that the sandbox's init is placed in it
 * before the tool starts (bubblewrap waits on its block descriptor), that a run whose placement
 * fails never starts its tool, and that an OOM kill the cgroup reports ends the run MEMORY_LIMIT.
 */
class RunCgroupsTests {

    private static final String PATH = "/usr/local/bin:/usr/bin:/bin";

    @TempDir
    Path root;

    private Sandbox sandbox;
    private ProcessSupervisor supervisor;

    @BeforeEach
    void delegate() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory hugetlb pids rdma misc\n");
        Files.writeString(root.resolve("cgroup.procs"), "");
        Files.writeString(root.resolve("cgroup.subtree_control"), "");
        sandbox = Sandbox.of(
                new AgentSettings.Sandbox(SandboxMode.BUBBLEWRAP, null, 65534, 65534, null, root),
                PATH,
                WorkArea.open(WorkArea.defaultRoot()),
                RunCgroups.prepared(root, false));
        supervisor = new ProcessSupervisor(Clock.systemUTC(), Duration.ofMillis(500), sandbox);
    }

    @AfterEach
    void close() {
        sandbox.close();
    }

    private static ProcessSpec spec(UUID runId, String script, SandboxPolicy policy) {
        return new ProcessSpec(
                runId,
                "test",
                List.of("sh", "-c", script),
                null,
                Map.of("PATH", PATH),
                Duration.ofSeconds(20),
                1 << 20,
                1 << 24,
                SecretRedactor.of(Map.of()),
                policy);
    }

    private static SandboxPolicy limits(long memory, int processes) {
        return new SandboxPolicy(false, List.of(), List.of(), processes, memory, 1L << 30, 1024, 1L << 20);
    }

    @Test
    void givesEachRunItsLimitsAndPlacesTheSandboxsInitBeforeTheToolStarts() throws Exception {
        UUID runId = UUID.randomUUID();
        Path cgroup = Files.createDirectories(root.resolve("run-" + runId));
        Path procs = cgroup.resolve("cgroup.procs");
        Process mkfifo = new ProcessBuilder("mkfifo", procs.toString()).start();
        assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0)
                .isTrue();
        // The placement writes into a pipe that this test opens only after a pause: until then the tool must not start.
        CompletableFuture<long[]> placed = CompletableFuture.supplyAsync(() -> {
            try {
                Thread.sleep(700); // a deliberate pause, not a wait for a condition
                long before = System.currentTimeMillis();
                try (InputStream in = Files.newInputStream(procs)) {
                    return new long[] {
                        before, Long.parseLong(new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip())
                    };
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        CaptureResult result = supervisor.run(spec(runId, "date +%s%3N", limits(64L << 20, 32)), new Cancellation());

        long[] placement = placed.get(30, TimeUnit.SECONDS);
        assertThat(result.termination()).isEqualTo(Termination.EXITED);
        assertThat(result.exitCode()).isZero();
        assertThat(Long.parseLong(result.stdout().text().strip()))
                .as("the tool started after its placement")
                .isGreaterThanOrEqualTo(placement[0]);
        assertThat(placement[1]).as("the sandbox's init, as the host sees it").isPositive();
        assertThat(Files.readString(cgroup.resolve("memory.max"))).isEqualTo(Long.toString(64L << 20));
        assertThat(Files.readString(cgroup.resolve("pids.max"))).isEqualTo("32");
    }

    @Test
    void aRunThatCannotBePlacedNeverStartsItsTool() throws Exception {
        UUID runId = UUID.randomUUID();
        Path writable = Files.createDirectories(
                Path.of(System.getProperty("user.dir"), "target", "cgroup-marks", runId.toString())
                        .toAbsolutePath());
        Files.setPosixFilePermissions(writable, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        Path marker = writable.resolve("ran");
        SandboxPolicy policy = new SandboxPolicy(
                false, List.of(), List.of(writable.toString()), 32, 64L << 20, 1L << 30, 1024, 1L << 20);
        assertThat(supervisor
                        .run(spec(UUID.randomUUID(), "echo ran > " + marker, policy), new Cancellation())
                        .exitCode())
                .as("a run that is placed writes its mark")
                .isZero();
        assertThat(marker).exists();
        Files.delete(marker);
        // cgroup.procs as a directory: writing the pid fails.
        Files.createDirectories(root.resolve("run-" + runId).resolve("cgroup.procs"));

        CaptureResult result = supervisor.run(spec(runId, "echo ran > " + marker, policy), new Cancellation());

        assertThat(result.termination()).isEqualTo(Termination.SPAWN_FAILED);
        assertThat(result.failure()).startsWith("cannot place the run in its cgroup");
        assertThat(marker).doesNotExist();
    }

    @Test
    void aRunTheKernelKilledForMemoryEndsMemoryLimit() throws Exception {
        UUID runId = UUID.randomUUID();
        Path cgroup = Files.createDirectories(root.resolve("run-" + runId));
        Files.writeString(
                cgroup.resolve("memory.events"), "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\noom_group_kill 0\n");

        CaptureResult result = supervisor.run(spec(runId, "exit 137", limits(64L << 20, 32)), new Cancellation());

        assertThat(result.termination()).isEqualTo(Termination.MEMORY_LIMIT);
        assertThat(result.exitCode()).isNull();
    }

    @Test
    void refusesADelegationWithoutTheControllersItNeedsOrWithProcessesOfItsOwn() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu io pids\n");
        assertThatThrownBy(() -> RunCgroups.prepared(root, false))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith("airlock.sandbox.cgroup: ")
                .hasMessageContaining("does not offer the memory controller");
        Files.writeString(root.resolve("cgroup.controllers"), "memory pids\n");
        Files.writeString(root.resolve("cgroup.procs"), "4242\n");
        assertThatThrownBy(() -> RunCgroups.prepared(root, false)).hasMessageContaining("holds processes of its own");

        Files.writeString(root.resolve("cgroup.procs"), "");
        assertThatThrownBy(() -> RunCgroups.prepared(root, true))
                .as("a host with swap, and no swap accounting")
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("has no memory.swap.max");
        Files.writeString(root.resolve("memory.swap.max"), "max\n");
        assertThat(RunCgroups.prepared(root, true)).isNotNull();
        Files.delete(root.resolve("memory.swap.max"));
        assertThat(RunCgroups.prepared(root, false)).as("no swap to go to").isNotNull();
    }

    @Test
    void knowsACgroupV2FileSystemFromTheMountTable() {
        assertThat(RunCgroups.onCgroup2(root)).isFalse();
        assertThatThrownBy(() -> RunCgroups.delegated(root)).hasMessageContaining("is not on a cgroup v2 file system");
    }
}
