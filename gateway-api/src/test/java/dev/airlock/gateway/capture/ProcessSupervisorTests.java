package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.support.HostProcesses;
import dev.airlock.gateway.support.HostProcesses.HostProcess;
import dev.airlock.kernel.config.SandboxMode;
import dev.airlock.kernel.digest.Sha256;
import dev.airlock.persistence.run.SandboxKind;
import dev.airlock.persistence.run.Termination;
import dev.airlock.sanitizer.SecretRedactor;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The supervisor on real processes, without Spring or a database, in bubblewrap and without a
 * sandbox. Which processes a run had, and whether they are gone, is read from the host's
 * {@code /proc} by the test itself.
 */
class ProcessSupervisorTests {

    private static final String PATH = "/usr/local/bin:/usr/bin:/bin";
    private static final Map<SandboxKind, ProcessSupervisor> SUPERVISORS = new EnumMap<>(SandboxKind.class);
    private static Sandbox bubblewrap;
    private static Sandbox unsandboxed;
    /**
     * A bubblewrap supervisor that waits 5 s for a run's output to end: with half a second, a loaded machine may
     * deliver the end of output after the drain's deadline, which sweeps /proc whatever the sandbox did.
     */
    private static ProcessSupervisor patient;

    @BeforeAll
    static void startSandboxes() {
        bubblewrap = Sandbox.of(
                new AgentSettings.Sandbox(SandboxMode.BUBBLEWRAP, null, 65534, 65534, null, null),
                PATH,
                WorkArea.open(WorkArea.defaultRoot()));
        unsandboxed = Sandbox.none(WorkArea.open(WorkArea.defaultRoot()));
        SUPERVISORS.put(
                SandboxKind.BUBBLEWRAP, new ProcessSupervisor(Clock.systemUTC(), Duration.ofMillis(500), bubblewrap));
        SUPERVISORS.put(
                SandboxKind.NONE, new ProcessSupervisor(Clock.systemUTC(), Duration.ofMillis(500), unsandboxed));
        patient = new ProcessSupervisor(Clock.systemUTC(), Duration.ofSeconds(5), bubblewrap);
    }

    @AfterAll
    static void closeSandboxes() {
        bubblewrap.close();
        unsandboxed.close();
    }

    private static ProcessSpec spec(
            UUID runId,
            List<String> argv,
            Duration timeout,
            long retained,
            long observed,
            Map<String, String> secrets) {
        Map<String, String> env = new java.util.HashMap<>(secrets);
        env.put("PATH", PATH);
        return new ProcessSpec(
                runId,
                "test",
                argv,
                null,
                env,
                timeout,
                retained,
                observed,
                SecretRedactor.of(secrets),
                SandboxPolicy.DEFAULTS);
    }

    private static ProcessSpec script(UUID runId, String script, Duration timeout) {
        return spec(runId, List.of("sh", "-c", script), timeout, 1 << 20, 1 << 24, Map.of());
    }

    private static String marker(UUID runId) {
        return ProcessSpec.RUN_ID_VARIABLE + "=" + runId;
    }

    @ParameterizedTest
    @EnumSource(SandboxKind.class)
    void givesTheChildOnlyTheConfiguredEnvironmentAndAnEmptyStandardInput(SandboxKind sandbox) {
        UUID runId = UUID.randomUUID();
        CaptureResult result = SUPERVISORS
                .get(sandbox)
                .run(script(runId, "env | sort; cat; echo stdin-done", Duration.ofSeconds(20)), new Cancellation());
        String out = result.stdout().text();
        assertThat(out).contains("PATH=" + PATH, "AIRLOCK_RUN_ID=" + runId, "stdin-done");
        assertThat(out.lines()
                        .filter(l -> l.contains("=")
                                && !l.startsWith("PWD=")
                                && !l.startsWith("SHLVL=")
                                && !l.startsWith("_="))
                        .toList())
                .hasSize(2);
        assertThat(result.sandbox()).isEqualTo(sandbox);
    }

    @ParameterizedTest
    @EnumSource(SandboxKind.class)
    void hashesEveryObservedByteButKeepsOnlyTheRetainedPrefix(SandboxKind sandbox) {
        CaptureResult result = SUPERVISORS
                .get(sandbox)
                .run(
                        spec(
                                UUID.randomUUID(),
                                List.of("seq", "100000"),
                                Duration.ofSeconds(20),
                                1000,
                                1 << 24,
                                Map.of()),
                        new Cancellation());
        StringBuilder expected = new StringBuilder();
        for (int i = 1; i <= 100000; i++) {
            expected.append(i).append('\n');
        }
        byte[] all = expected.toString().getBytes(StandardCharsets.US_ASCII);
        assertThat(result.stdout().observedBytes()).isEqualTo(all.length);
        assertThat(result.stdout().sha256()).isEqualTo(Sha256.hex(all));
        assertThat(result.stdout().retainedBytes()).isEqualTo(1000);
        assertThat(result.stdout().raw()).hasSize(1000);
        assertThat(result.stdout().truncated()).isTrue();
        assertThat(result.stdout().eof()).isTrue();
        assertThat(result.stdout().text()).startsWith("1\n2\n3\n").hasSize(1000);
    }

    @ParameterizedTest
    @EnumSource(SandboxKind.class)
    void killsTheWholeTreeOnTimeout(SandboxKind sandbox) throws Exception {
        UUID runId = UUID.randomUUID();
        CompletableFuture<CaptureResult> running = CompletableFuture.supplyAsync(() -> SUPERVISORS
                .get(sandbox)
                .run(script(runId, "sleep 61 & sleep 62 & wait", Duration.ofSeconds(2)), new Cancellation()));
        List<HostProcess> tree = HostProcesses.awaitWithEnvironment(
                marker(runId), HostProcesses.sleeping("61").and(HostProcesses.sleeping("62")), Duration.ofSeconds(10));

        CaptureResult result = running.get(30, TimeUnit.SECONDS);

        assertThat(HostProcesses.stillAlive(tree))
                .as("processes of the run after it ended")
                .isEmpty();
        assertThat(tree).extracting(HostProcess::comm).contains("sh", "sleep", "sleep");
        assertThat(result.termination()).isEqualTo(Termination.TIMEOUT);
        assertThat(result.exitCode()).isNull();
    }

    @Test
    void theSandboxChangesTheUserInsideItsNamespaceWhateverTheHostUserIs() throws Exception {
        // A host user other than the sandbox's 65534, so that dropping bubblewrap's --uid/--gid would show inside.
        boolean root = WorkArea.currentUid() == 0;
        int hostUid = root ? 65533 : WorkArea.currentUid();
        int hostGid = root
                ? 65533
                : (Integer) java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:gid");
        try (Sandbox other = Sandbox.of(
                new AgentSettings.Sandbox(SandboxMode.BUBBLEWRAP, null, 65533, 65533, null, null),
                PATH,
                WorkArea.open(WorkArea.defaultRoot()))) {
            ProcessSupervisor supervisor = new ProcessSupervisor(Clock.systemUTC(), Duration.ofMillis(500), other);
            UUID runId = UUID.randomUUID();
            CompletableFuture<CaptureResult> running = CompletableFuture.supplyAsync(() -> supervisor.run(
                    script(runId, "grep -E '^(Uid|Gid):' /proc/self/status; exec sleep 74", Duration.ofSeconds(3)),
                    new Cancellation()));
            List<HostProcess> seen = HostProcesses.awaitWithEnvironment(
                    marker(runId), HostProcesses.sleeping("74"), Duration.ofSeconds(10));
            String outside = java.nio.file.Files.readString(java.nio.file.Path.of(
                    "/proc",
                    Long.toString(seen.stream()
                            .filter(p -> p.comm().equals("sleep"))
                            .findFirst()
                            .orElseThrow()
                            .pid()),
                    "status"));
            CaptureResult result = running.get(30, TimeUnit.SECONDS);

            assertThat(result.stdout().text())
                    .as("inside the namespace")
                    .contains("Uid:\t65534\t65534\t65534\t65534")
                    .contains("Gid:\t65534\t65534\t65534\t65534");
            assertThat(outside)
                    .as("the same process as the host sees it")
                    .contains("Uid:\t" + hostUid + "\t" + hostUid + "\t" + hostUid + "\t" + hostUid)
                    .contains("Gid:\t" + hostGid + "\t" + hostGid + "\t" + hostGid + "\t" + hostGid);
        }
    }

    @ParameterizedTest
    @EnumSource(SandboxKind.class)
    void killsAGrandchildThatKeepsThePipeOpen(SandboxKind sandbox) throws Exception {
        UUID runId = UUID.randomUUID();
        CompletableFuture<CaptureResult> running = CompletableFuture.supplyAsync(() -> SUPERVISORS
                .get(sandbox)
                .run(script(runId, "sleep 63 & echo started; sleep 2", Duration.ofSeconds(20)), new Cancellation()));
        List<HostProcess> tree =
                HostProcesses.awaitWithEnvironment(marker(runId), HostProcesses.sleeping("63"), Duration.ofSeconds(10));

        CaptureResult result = running.get(30, TimeUnit.SECONDS);

        assertThat(HostProcesses.stillAlive(tree))
                .as("processes of the run after it ended")
                .isEmpty();
        assertThat(result.termination()).isEqualTo(Termination.EXITED);
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout().text()).isEqualTo("started\n");
        assertThat(result.stdout().eof()).isTrue();
        assertThat(Duration.between(result.startedAt(), result.endedAt())).isLessThan(Duration.ofSeconds(20));
    }

    @ParameterizedTest
    @EnumSource(SandboxKind.class)
    void stopsAStreamPastItsObservedLimit(SandboxKind sandbox) {
        CaptureResult result = SUPERVISORS
                .get(sandbox)
                .run(
                        spec(UUID.randomUUID(), List.of("yes"), Duration.ofSeconds(20), 4096, 256 * 1024, Map.of()),
                        new Cancellation());
        assertThat(result.termination()).isEqualTo(Termination.OUTPUT_LIMIT);
        assertThat(result.stdout().observedBytes()).isGreaterThan(256 * 1024);
        assertThat(result.stdout().retainedBytes()).isEqualTo(4096);
    }

    @ParameterizedTest
    @EnumSource(SandboxKind.class)
    void reportsSpawnFailureWithoutThrowing(SandboxKind sandbox) {
        CaptureResult result = SUPERVISORS
                .get(sandbox)
                .run(
                        spec(
                                UUID.randomUUID(),
                                List.of("/no/such/program"),
                                Duration.ofSeconds(5),
                                1024,
                                1024,
                                Map.of()),
                        new Cancellation());
        assertThat(result.termination()).isEqualTo(Termination.SPAWN_FAILED);
        assertThat(result.failure()).startsWith("cannot start '/no/such/program'");
    }

    @ParameterizedTest
    @EnumSource(SandboxKind.class)
    void cancelsARunningProcess(SandboxKind sandbox) throws Exception {
        UUID runId = UUID.randomUUID();
        Cancellation cancellation = new Cancellation();
        CompletableFuture<CaptureResult> result = CompletableFuture.supplyAsync(() -> SUPERVISORS
                .get(sandbox)
                .run(script(runId, "echo begun; sleep 64", Duration.ofSeconds(60)), cancellation));
        // The sleep runs only after the echo has written its line: the process has really started.
        List<HostProcess> tree =
                HostProcesses.awaitWithEnvironment(marker(runId), HostProcesses.sleeping("64"), Duration.ofSeconds(10));

        cancellation.cancel();
        CaptureResult ended = result.get(20, TimeUnit.SECONDS);

        assertThat(HostProcesses.stillAlive(tree))
                .as("processes of the run after it ended")
                .isEmpty();
        assertThat(ended.termination()).isEqualTo(Termination.CANCELLED);
        assertThat(ended.exitCode()).isNull();
        assertThat(ended.stdout().text()).isEqualTo("begun\n");
    }

    @Test
    void abandonsAStreamThatALeftoverOutsideTheTreeKeepsOpen() throws Exception {
        // Without a sandbox, a process that leaves the tree and clears its environment cannot be
        // found: the pipe is given up after the second drain deadline, with its end unseen.
        UUID runId = UUID.randomUUID();
        String leftover = "AIRLOCK_TEST_LEFTOVER=" + UUID.randomUUID();
        try {
            CaptureResult result = SUPERVISORS
                    .get(SandboxKind.NONE)
                    .run(
                            script(runId, "env -i " + leftover + " sleep 65 & echo started", Duration.ofSeconds(20)),
                            new Cancellation());

            assertThat(HostProcesses.withEnvironment(leftover))
                    .as("the leftover outlived the run")
                    .hasSize(1);
            assertThat(result.termination()).isEqualTo(Termination.EXITED);
            assertThat(result.exitCode()).isZero();
            assertThat(result.stdout().text()).isEqualTo("started\n");
            assertThat(result.stdout().eof()).isFalse();
            assertThat(result.stderr().eof()).isFalse();
        } finally {
            HostProcesses.withEnvironment(leftover)
                    .forEach(p -> ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly));
        }
    }

    @Test
    void theSandboxTakesALeftoverThatClearedItsEnvironmentWithIt() throws Exception {
        // The same leftover in bubblewrap lives in the run's PID namespace and dies with it: the
        // streams end and nothing is abandoned.
        UUID runId = UUID.randomUUID();
        String leftover = "AIRLOCK_TEST_LEFTOVER=" + UUID.randomUUID();
        CompletableFuture<CaptureResult> running = CompletableFuture.supplyAsync(() -> SUPERVISORS
                .get(SandboxKind.BUBBLEWRAP)
                .run(
                        script(
                                runId,
                                "env -i " + leftover + " sleep 66 & echo started; sleep 2",
                                Duration.ofSeconds(20)),
                        new Cancellation()));
        List<HostProcess> seen =
                HostProcesses.awaitWithEnvironment(leftover, HostProcesses.sleeping("66"), Duration.ofSeconds(10));

        CaptureResult result = running.get(30, TimeUnit.SECONDS);

        assertThat(HostProcesses.stillAlive(seen)).isEmpty();
        assertThat(result.stdout().text()).isEqualTo("started\n");
        assertThat(result.stdout().eof()).isTrue();
        assertThat(result.stderr().eof()).isTrue();
    }

    @Test
    void aSandboxWhoseInitIsGoneNeedsNoSweepOfProc() {
        // bubblewrap reports the init of the run's PID namespace; once the init is gone, so is every
        // process of the run, and no process's environment has to be read to find leftovers.
        long sweeps = ProcessTree.sweeps();
        for (String command : List.of("true", "echo done", "sleep 0.2 & echo started")) {
            CaptureResult result =
                    patient.run(script(UUID.randomUUID(), command, Duration.ofSeconds(20)), new Cancellation());
            assertThat(result.termination()).as(command).isEqualTo(Termination.EXITED);
            assertThat(result.exitCode()).as(command).isZero();
        }
        assertThat(ProcessTree.sweeps()).as("sweeps of /proc").isEqualTo(sweeps);
    }

    @ParameterizedTest
    @EnumSource(SandboxKind.class)
    void aRunIsCapturedAndReapedOnThreadsThatEarlierRunsLeftIdle(SandboxKind sandbox) throws Exception {
        // Starting a platform thread for each stream and for the reaper of every run cost the gateway a
        // measurable share of its CPU per run: the threads are pooled and a later run takes idle ones.
        SUPERVISORS
                .get(sandbox)
                .run(script(UUID.randomUUID(), "echo first", Duration.ofSeconds(20)), new Cancellation());
        int needed = sandbox == SandboxKind.BUBBLEWRAP ? 3 : 2; // both streams, and bubblewrap's reaper
        Set<Long> idle = awaitIdleBlockingThreads(needed);
        UUID runId = UUID.randomUUID();
        CompletableFuture<CaptureResult> running = CompletableFuture.supplyAsync(() -> SUPERVISORS
                .get(sandbox)
                .run(script(runId, "echo begun; sleep 3", Duration.ofSeconds(20)), new Cancellation()));
        HostProcesses.awaitWithEnvironment(marker(runId), HostProcesses.sleeping("3"), Duration.ofSeconds(10));

        Map<String, Long> threads = new java.util.HashMap<>();
        Thread.getAllStackTraces().keySet().forEach(t -> threads.put(t.getName(), t.threadId()));
        List<Long> used = new java.util.ArrayList<>(
                List.of(threads.get("capture-stdout-" + runId), threads.get("capture-stderr-" + runId)));
        if (sandbox == SandboxKind.BUBBLEWRAP) {
            threads.forEach((name, id) -> {
                if (name.startsWith("airlock-reaper-")) {
                    used.add(id);
                }
            });
        }
        CaptureResult result = running.get(30, TimeUnit.SECONDS);

        assertThat(used).hasSize(needed).allSatisfy(id -> assertThat(idle).contains(id));
        assertThat(result.stdout().text()).isEqualTo("begun\n");
    }

    /** The ids of the pooled threads that wait idle, once there are at least {@code count} of them. */
    private static Set<Long> awaitIdleBlockingThreads(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            Set<Long> idle = new java.util.HashSet<>();
            for (Thread thread : Thread.getAllStackTraces().keySet()) {
                if (thread.getName().startsWith("airlock-blocking-")) {
                    idle.add(thread.threadId());
                }
            }
            if (idle.size() >= count || System.nanoTime() > deadline) {
                return idle;
            }
            Thread.sleep(10);
        }
    }

    @Test
    void aLeftoverWithoutTheMarkerOrTheOutputIsGoneWhenTheRunEndsWithoutASweep() throws Exception {
        // A leftover that clears its environment (so no sweep could find it) and lets go of the
        // output pipes (so draining them does not wait for it): the run ends only once the sandbox's
        // init, and with it the leftover, is gone.
        String leftover = "AIRLOCK_TEST_LEFTOVER=" + UUID.randomUUID();
        long sweeps = ProcessTree.sweeps();
        CompletableFuture<CaptureResult> running = CompletableFuture.supplyAsync(() -> patient.run(
                script(
                        UUID.randomUUID(),
                        "env -i " + leftover + " sh -c 'exec >/dev/null 2>&1 </dev/null; sleep 67' &"
                                + " echo started; sleep 1",
                        Duration.ofSeconds(20)),
                new Cancellation()));
        List<HostProcess> seen =
                HostProcesses.awaitWithEnvironment(leftover, HostProcesses.sleeping("67"), Duration.ofSeconds(10));

        CaptureResult result = running.get(30, TimeUnit.SECONDS);

        assertThat(seen).isNotEmpty();
        assertThat(HostProcesses.stillAlive(seen)).isEmpty();
        assertThat(result.stdout().text()).isEqualTo("started\n");
        assertThat(ProcessTree.sweeps()).as("sweeps of /proc").isEqualTo(sweeps);
    }

    @Test
    void redactsASecretWrittenInPiecesAcrossReads() {
        // Fed to the capture directly, one piece per read, so the split is certain.
        ScriptedStream pieces = new ScriptedStream("a s3cr3t-", "VALUE", "-1234 b\n");
        StreamCapture capture = new StreamCapture(
                () -> pieces, 1 << 20, 1 << 24, SecretRedactor.of(Map.of("TOKEN", "s3cr3t-VALUE-1234")), () -> {});

        capture.run();
        StreamResult result = capture.seal();

        assertThat(pieces.reads()).as("reads with data").isEqualTo(3);
        assertThat(result.text()).isEqualTo("a [REDACTED:TOKEN] b\n");
        assertThat(result.redactions()).isEqualTo(1);
        // The raw artifact keeps what the tool printed, except the value Airlock injected.
        assertThat(new String(result.raw(), StandardCharsets.UTF_8)).isEqualTo("a [REDACTED:TOKEN] b\n");
        assertThat(result.rawRedactions()).isEqualTo(1);
        assertThat(result.eof()).isTrue();
    }

    @Test
    void anAbandonedStreamKeepsItsEndUnseenEvenIfClosingItEndsTheRead() throws Exception {
        // Closing a pipe under a blocked read can make that read return -1, as the end would.
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        InputStream held = new InputStream() {
            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws java.io.IOException {
                reading.countDown();
                try {
                    closed.await();
                } catch (InterruptedException e) {
                    throw new java.io.InterruptedIOException();
                }
                return -1;
            }

            @Override
            public void close() {
                closed.countDown();
            }
        };
        StreamCapture capture = new StreamCapture(() -> held, 1024, 1024, SecretRedactor.of(Map.of()), () -> {});
        Thread.ofVirtual().start(capture);
        assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();

        capture.abandon();

        assertThat(capture.awaitEnd(10_000)).isTrue();
        assertThat(capture.seal().eof()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(SandboxKind.class)
    void redactsAnInjectedSecretFromBothStreams(SandboxKind sandbox) {
        Map<String, String> secrets = Map.of("TOKEN", "s3cr3t-VALUE-1234");
        CaptureResult result = SUPERVISORS
                .get(sandbox)
                .run(
                        spec(
                                UUID.randomUUID(),
                                List.of("sh", "-c", "echo \"a $TOKEN b\"; echo \"$TOKEN\" >&2"),
                                Duration.ofSeconds(20),
                                1 << 20,
                                1 << 24,
                                secrets),
                        new Cancellation());
        assertThat(result.stdout().text()).isEqualTo("a [REDACTED:TOKEN] b\n");
        assertThat(result.stderr().text()).isEqualTo("[REDACTED:TOKEN]\n");
    }

    @ParameterizedTest
    @EnumSource(SandboxKind.class)
    void keepsStdoutAndStderrApart(SandboxKind sandbox) {
        CaptureResult result = SUPERVISORS
                .get(sandbox)
                .run(
                        script(UUID.randomUUID(), "echo one; echo two >&2; echo three", Duration.ofSeconds(20)),
                        new Cancellation());
        assertThat(result.stdout().text()).isEqualTo("one\nthree\n");
        assertThat(result.stderr().text()).isEqualTo("two\n");
    }

    /** An input stream that returns each of its pieces in one read of its own, and counts them. */
    private static final class ScriptedStream extends InputStream {

        private final Deque<byte[]> pieces = new ArrayDeque<>();
        private int reads;

        ScriptedStream(String... pieces) {
            for (String piece : pieces) {
                this.pieces.add(piece.getBytes(StandardCharsets.UTF_8));
            }
        }

        @Override
        public int read() {
            throw new UnsupportedOperationException("the capture reads in chunks");
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            byte[] piece = pieces.poll();
            if (piece == null) {
                return -1;
            }
            if (piece.length > length) {
                throw new IllegalStateException("a piece larger than the capture's buffer");
            }
            System.arraycopy(piece, 0, buffer, offset, piece.length);
            reads++;
            return piece.length;
        }

        int reads() {
            return reads;
        }
    }
}
