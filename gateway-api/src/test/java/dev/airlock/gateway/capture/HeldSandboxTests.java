package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.SandboxMode;
import dev.airlock.persistence.run.Termination;
import dev.airlock.sanitizer.SecretRedactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A run's sandbox set up ahead of its start ({@link ProcessSupervisor#hold}): the command starts
 * only when the run is let go, never when it is discarded, cancelled, or when the gateway's end of
 * the block pipe is gone. Each tool here leaves a file in a writable mount the moment it starts,
 * so that "it never started" is read from the host, not from the supervisor.
 */
class HeldSandboxTests {

    private static final String PATH = "/usr/local/bin:/usr/bin:/bin";
    private static Sandbox bubblewrap;
    private static ProcessSupervisor supervisor;
    private Path mount;

    @BeforeAll
    static void startSandbox() {
        bubblewrap = Sandbox.of(
                new AgentSettings.Sandbox(SandboxMode.BUBBLEWRAP, null, 65534, 65534, null, null),
                PATH,
                WorkArea.open(WorkArea.defaultRoot()));
        supervisor = new ProcessSupervisor(Clock.systemUTC(), Duration.ofMillis(500), bubblewrap);
    }

    @AfterAll
    static void closeSandbox() {
        bubblewrap.close();
    }

    @BeforeEach
    void makeMount() throws IOException {
        // Writable by the sandbox's host user, whoever runs the tests.
        mount = Files.createTempDirectory(Path.of("/tmp"), "airlock-held-");
        Files.setPosixFilePermissions(mount, PosixFilePermissions.fromString("rwxrwxrwx"));
    }

    @AfterEach
    void removeMount() {
        WorkArea.deleteTree(mount);
    }

    private ProcessSpec startsBy(UUID runId, String thenRun, Duration timeout) {
        return new ProcessSpec(
                runId,
                "held",
                List.of("sh", "-c", "date +%s%N > " + mount + "/started; " + thenRun),
                null,
                Map.of("PATH", PATH),
                timeout,
                1 << 16,
                1 << 20,
                SecretRedactor.of(Map.of()),
                new SandboxPolicy(false, List.of(), List.of(mount.toString()), 16, 1L << 30, 1L << 20, 64, 1L << 20));
    }

    private boolean started() {
        return Files.exists(mount.resolve("started"));
    }

    private static String marker(UUID runId) {
        return ProcessSpec.RUN_ID_VARIABLE + "=" + runId;
    }

    @Test
    void aHeldRunStartsOnlyWhenItIsRunAndItsTimeLimitCountsFromThere() throws Exception {
        UUID runId = UUID.randomUUID();
        ProcessSupervisor.Held held = supervisor.hold(startsBy(runId, "sleep 0.5; echo ran", Duration.ofSeconds(1)));
        assertThat(held.pid()).isPositive();
        Path note = bubblewrap.work().directory().resolve("held-" + runId);
        assertThat(note).as("the note a killed replica's successor finds").exists();

        // Held longer than the run's own time limit: none of it counts, and the tool has not started.
        Thread.sleep(1_200);
        assertThat(started()).as("started while held").isFalse();

        CaptureResult result = supervisor.run(held, new Cancellation());

        assertThat(result.termination()).isEqualTo(Termination.EXITED);
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout().text()).isEqualTo("ran\n");
        assertThat(started()).isTrue();
        assertThat(ProcessTree.killMarked(marker(runId))).as("left of the run").isEmpty();
        assertThat(note).doesNotExist();
    }

    @Test
    void aWorkingDirectoryNestedThousandsOfLevelsDeepIsRemovedAfterItsRun() throws Exception {
        UUID runId = UUID.randomUUID();
        ProcessSpec spec = new ProcessSpec(
                runId,
                "nest",
                List.of(
                        "python3",
                        "-c",
                        "import os\nfor i in range(3000):\n    os.mkdir('d'); os.chdir('d')\n"
                                + "os.mkdir('d'); os.chmod('.', 0)\nprint('nested')"),
                null,
                Map.of("PATH", PATH),
                Duration.ofSeconds(30),
                1 << 16,
                1 << 20,
                SecretRedactor.of(Map.of()),
                SandboxPolicy.DEFAULTS);

        CaptureResult result = supervisor.run(supervisor.hold(spec), new Cancellation());

        assertThat(result.stdout().text()).isEqualTo("nested\n");
        assertThat(bubblewrap.work().directory().resolve("run-" + runId)).doesNotExist();
    }

    @Test
    void aDiscardedRunNeverStartsAndLeavesNothing() throws Exception {
        UUID runId = UUID.randomUUID();
        ProcessSupervisor.Held held = supervisor.hold(startsBy(runId, "echo ran", Duration.ofSeconds(5)));
        Thread.sleep(200);

        supervisor.discard(held);

        Thread.sleep(300);
        assertThat(started()).as("started after a discard").isFalse();
        // Reaped on a pooled thread, which a loaded machine may run late.
        org.awaitility.Awaitility.await("bubblewrap reaped")
                .atMost(Duration.ofSeconds(10))
                .until(() -> ProcessHandle.of(held.pid()).isEmpty());
        assertThat(ProcessTree.killMarked(marker(runId))).as("left of the run").isEmpty();
        assertThat(bubblewrap.work().directory().resolve("run-" + runId)).doesNotExist();
        assertThat(bubblewrap.work().directory().resolve("held-" + runId)).doesNotExist();
    }

    @Test
    void aRunCancelledWhileHeldNeverStarts() throws Exception {
        UUID runId = UUID.randomUUID();
        ProcessSupervisor.Held held = supervisor.hold(startsBy(runId, "echo ran", Duration.ofSeconds(5)));
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();

        CaptureResult result = supervisor.run(held, cancellation);

        assertThat(result.termination()).isEqualTo(Termination.CANCELLED);
        Thread.sleep(300);
        assertThat(started()).isFalse();
        assertThat(ProcessTree.killMarked(marker(runId))).as("left of the run").isEmpty();
    }

    @Test
    void aHeldRunIsRunOrDiscardedOnce() {
        ProcessSupervisor.Held held = supervisor.hold(startsBy(UUID.randomUUID(), "echo ran", Duration.ofSeconds(5)));
        assertThat(supervisor.run(held, new Cancellation()).exitCode()).isZero();

        assertThatThrownBy(() -> supervisor.run(held, new Cancellation())).isInstanceOf(IllegalStateException.class);
        assertThat(supervisor.discard(held)).as("discarded after it ran").isFalse();

        ProcessSupervisor.Held discarded =
                supervisor.hold(startsBy(UUID.randomUUID(), "echo ran", Duration.ofSeconds(5)));
        assertThat(supervisor.discard(discarded)).isTrue();
        assertThat(supervisor.discard(discarded)).isFalse();
        assertThatThrownBy(() -> supervisor.run(discarded, new Cancellation()))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRunThatCannotStartSaysSoWhenItIsRun() {
        ProcessSpec spec = new ProcessSpec(
                UUID.randomUUID(),
                "held",
                List.of("no-such-program-anywhere"),
                null,
                Map.of("PATH", PATH),
                Duration.ofSeconds(5),
                1 << 16,
                1 << 20,
                SecretRedactor.of(Map.of()),
                SandboxPolicy.DEFAULTS);
        ProcessSupervisor.Held held = supervisor.hold(spec);
        assertThat(held.pid()).isEqualTo(-1);

        CaptureResult result = supervisor.run(held, new Cancellation());

        assertThat(result.termination()).isEqualTo(Termination.SPAWN_FAILED);
        assertThat(result.failure()).contains("no-such-program-anywhere");
    }

    @Test
    void aSandboxWhoseGatewayIsGoneKeepsWaitingInsteadOfStartingItsCommand() throws Exception {
        // What the gateway's death does to a sandbox waiting to be let go: every descriptor of the
        // gateway is closed (the block pipe's writer among them) and bubblewrap is killed (its
        // parent-death signal), while the sandbox's init, which sets its own parent-death signal
        // only after the wait, is left. bubblewrap starts the command on whatever the wait reads,
        // the end of the stream included; the init must read no end and keep waiting.
        UUID runId = UUID.randomUUID();
        ProcessSpec spec = startsBy(runId, "echo ran", Duration.ofSeconds(5));
        Path dir = bubblewrap.newWorkingDirectory(runId);
        NativeProcess process;
        try (Sandbox.Prepared prepared = bubblewrap.prepare(spec, dir)) {
            process = prepared.start(false);
        }
        try {
            Thread.sleep(300);
            process.input(0).close();
            LibC.kill((int) process.pid(), LibC.SIGKILL);
            assertThat(process.waitFor(5_000)).isTrue();

            Thread.sleep(500);

            assertThat(started()).as("the command started without being let go").isFalse();
            assertThat(ProcessTree.killMarked(marker(runId)))
                    .as("the sandbox's init, still waiting")
                    .isNotEmpty();
        } finally {
            // The init still waits (or the command ran): either way it carries the run's marker.
            assertThat(ProcessTree.awaitGone(ProcessTree.killMarked(marker(runId)), Duration.ofSeconds(5)))
                    .isTrue();
            process.closeStreams();
            Sandbox.removeWorkingDirectory(dir);
        }
    }
}
