package dev.airlock.gateway.capture;

import dev.airlock.persistence.run.SandboxKind;
import dev.airlock.persistence.run.Termination;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a process, in its sandbox, and supervises it to the end: no shell, an empty standard
 * input, a cleared environment, stdout and stderr captured separately and concurrently, the time
 * limit and the observed-bytes limit enforced by killing the whole process tree. Thread-safe; one
 * call per run.
 */
public final class ProcessSupervisor {

    private static final Logger log = LoggerFactory.getLogger(ProcessSupervisor.class);
    private static final File NO_INPUT =
            new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);
    /** How long bubblewrap may take to report its sandbox's init, before a run is placed in its cgroup. */
    private static final Duration PLACEMENT_WAIT = Duration.ofSeconds(15);

    private final Clock clock;
    private final Duration drainTimeout;
    private final Sandbox sandbox;

    public ProcessSupervisor(Clock clock, Duration drainTimeout, Sandbox sandbox) {
        this.clock = clock;
        this.drainTimeout = drainTimeout;
        this.sandbox = sandbox;
    }

    /** What this supervisor isolates processes by. */
    public SandboxKind sandbox() {
        return sandbox.kind();
    }

    /** Runs {@code spec} to its end and reports what was observed. */
    public CaptureResult run(ProcessSpec spec, Cancellation cancellation) {
        if (cancellation.requested()) {
            return cancelled(clock.instant());
        }
        return run(hold(spec), cancellation);
    }

    /**
     * Makes {@code spec}'s process ready without starting it: its working directory made and, in
     * bubblewrap, its sandbox set up (and placed in the run's cgroup), waiting until {@link
     * #run(Held, Cancellation)} lets the command start; {@link #discard} takes a held run down
     * without its command ever starting. What fails here is kept, and reported by {@link
     * #run(Held, Cancellation)} as the run's failure to start. The caller runs or discards what it
     * holds, once.
     */
    Held hold(ProcessSpec spec) {
        Path scratch = null;
        try {
            Path workingDir = spec.workingDir();
            if (workingDir == null) {
                scratch = sandbox.newWorkingDirectory(spec.runId());
                workingDir = scratch;
            } else if (sandbox.kind() == SandboxKind.NONE && !Files.isDirectory(workingDir)) {
                return Held.refused(spec, null, "the working directory " + workingDir + " does not exist");
            }
            return sandbox.kind() == SandboxKind.BUBBLEWRAP
                    ? holdSandboxed(spec, scratch, workingDir, false)
                    : new Held(spec, scratch, workingDir, null, null, -1, null);
        } catch (IOException e) {
            return Held.refused(spec, scratch, "cannot prepare the working directory: " + e.getMessage());
        } catch (RuntimeException | Error e) {
            if (scratch != null) {
                removeWhenGone(spec, scratch, false);
            }
            throw e;
        }
    }

    /**
     * {@code spec}'s sandbox set up, placed in its cgroup and waiting, or why not (nothing of it
     * left then); for a long-lived {@code server}, with a standard input pipe.
     */
    private Held holdSandboxed(ProcessSpec spec, @Nullable Path scratch, Path workingDir, boolean server) {
        RunCgroups.RunCgroup cgroup = null;
        if (sandbox.cgroups() != null) {
            try {
                cgroup = sandbox.cgroups().create(spec.runId(), spec.sandbox());
            } catch (IOException e) {
                return Held.refused(
                        spec,
                        scratch,
                        "cannot make the " + (server ? "server" : "run") + "'s cgroup: " + e.getMessage());
            }
        }
        String refused;
        NativeProcess process = null;
        boolean noted = false;
        boolean held = false;
        try (Sandbox.Prepared prepared = sandbox.prepare(spec, workingDir)) {
            sandbox.work().holding(spec.runId());
            noted = true;
            try {
                process = prepared.start(server);
            } catch (RuntimeException | Error e) {
                // Started but not supervised (its reaper could not start): its init may wait already; gone now.
                awaitGone(spec, ProcessTree.killMarked(marker(spec)));
                throw e;
            }
            long[] init = {-1};
            refused = cgroup == null ? null : placeInCgroup(process, cgroup, placed -> init[0] = placed);
            if (refused == null) {
                held = true;
                return new Held(spec, scratch, workingDir, cgroup, process, init[0], null);
            }
        } catch (Sandbox.SpawnRefused e) {
            refused = Objects.requireNonNull(e.getMessage(), "a refused start says why");
        } catch (IOException e) {
            refused = "cannot start the sandbox: " + rootMessage(e);
        } finally {
            if (!held) {
                try {
                    if (process != null) {
                        // The sandbox's init still waits to start the tool: killed now, the tool never runs.
                        takeDown(spec, process);
                    }
                } finally {
                    if (noted) {
                        sandbox.work().letGo(spec.runId());
                    }
                    if (cgroup != null) {
                        cgroup.remove();
                    }
                }
            }
        }
        return Held.refused(spec, scratch, refused);
    }

    /**
     * Lets a run {@link #hold held} start, supervises it to its end and reports what was observed.
     * Its time limit counts from here; a run cancelled before this never starts.
     *
     * @throws IllegalStateException if {@code held} was run or discarded already
     */
    CaptureResult run(Held held, Cancellation cancellation) {
        held.take();
        Instant startedAt = clock.instant();
        NativeProcess process = held.process;
        boolean released = false;
        java.util.concurrent.atomic.AtomicBoolean treeGone = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            if (held.refused != null) {
                return CaptureResult.spawnFailed(startedAt, clock.instant(), held.refused);
            }
            if (cancellation.requested()) {
                return cancelled(startedAt);
            }
            if (process == null) {
                return superviseUnsandboxed(
                        held.spec, cancellation, Objects.requireNonNull(held.workingDir), startedAt);
            }
            released = true;
            return superviseSandboxed(held, process, cancellation, startedAt, treeGone);
        } finally {
            try {
                if (process != null && !released) {
                    takeDown(held.spec, process);
                }
            } finally {
                if (process != null) {
                    sandbox.work().letGo(held.spec.runId());
                }
                held.release(treeGone.get());
            }
        }
    }

    /**
     * Takes a run {@link #hold held} down without its command ever starting: its sandbox killed,
     * its cgroup and working directory removed; unless it was run or discarded already.
     *
     * @return whether it was taken down here
     */
    boolean discard(Held held) {
        if (!held.taken.compareAndSet(false, true)) {
            return false;
        }
        try {
            if (held.process != null) {
                takeDown(held.spec, held.process);
            }
        } finally {
            if (held.process != null) {
                sandbox.work().letGo(held.spec.runId());
            }
            held.release(false);
        }
        return true;
    }

    private static CaptureResult cancelled(Instant at) {
        return new CaptureResult(
                at, at, null, Termination.CANCELLED, null, null, StreamResult.empty(), StreamResult.empty());
    }

    /** Kills a sandbox that was never let go, and everything of its run; waits for them to be gone. */
    private static void takeDown(ProcessSpec spec, NativeProcess process) {
        try {
            // bubblewrap may have ended and been reaped already (it failed to set up): its pid is then
            // no longer its own to kill, and only the run's marker finds what is left of the run.
            awaitGone(
                    spec,
                    process.isAlive()
                            ? ProcessTree.kill(process.pid(), marker(spec))
                            : ProcessTree.killMarked(marker(spec)));
        } finally {
            process.closeStreams();
        }
    }

    private static String marker(ProcessSpec spec) {
        return ProcessSpec.RUN_ID_VARIABLE + "=" + spec.runId();
    }

    /**
     * A run's process made ready by {@link #hold}, not started yet: its sandbox set up and waiting
     * (or, without a sandbox, only its working directory), or the reason it cannot start. Run or
     * discarded once.
     */
    static final class Held {

        private final ProcessSpec spec;
        /** The fresh working directory made for the run, removed with it; null when the tool names one. */
        private final @Nullable Path scratch;

        private final @Nullable Path workingDir;
        private final RunCgroups.@Nullable RunCgroup cgroup;
        /** The waiting sandbox's bubblewrap; null without a sandbox, or when the run cannot start. */
        private final @Nullable NativeProcess process;
        /** The sandbox's init as the cgroup placement read it, or -1. */
        private final long init;

        private final @Nullable String refused;
        private final java.util.concurrent.atomic.AtomicBoolean taken = new java.util.concurrent.atomic.AtomicBoolean();

        private Held(
                ProcessSpec spec,
                @Nullable Path scratch,
                @Nullable Path workingDir,
                RunCgroups.@Nullable RunCgroup cgroup,
                @Nullable NativeProcess process,
                long init,
                @Nullable String refused) {
            this.spec = spec;
            this.scratch = scratch;
            this.workingDir = workingDir;
            this.cgroup = cgroup;
            this.process = process;
            this.init = init;
            this.refused = refused;
        }

        private static Held refused(ProcessSpec spec, @Nullable Path scratch, String why) {
            return new Held(spec, scratch, null, null, null, -1, why);
        }

        /** The pid of the waiting sandbox's bubblewrap, or -1 when no sandbox waits. */
        long pid() {
            return process == null ? -1 : process.pid();
        }

        private void take() {
            if (!taken.compareAndSet(false, true)) {
                throw new IllegalStateException("run " + spec.runId() + " was run or discarded already");
            }
        }

        /** Removes the run's cgroup and fresh working directory, once nothing of the run is left. */
        private void release(boolean treeGone) {
            try {
                if (cgroup != null) {
                    cgroup.remove();
                }
            } finally {
                if (scratch != null) {
                    removeWhenGone(spec, scratch, treeGone);
                }
            }
        }
    }

    /**
     * Starts {@code spec} as a long-lived server in this supervisor's sandbox (bubblewrap, or none),
     * its standard input, output and error pipes handed to the caller; its time limit and output
     * bounds are the caller's to apply. It runs in a fresh empty working directory unless the spec
     * names one.
     *
     * @throws IOException with a message naming no secret, when it cannot be started
     */
    public ServerProcess startServer(ProcessSpec spec) throws IOException {
        Path scratch = null;
        Path workingDir = spec.workingDir();
        if (workingDir == null) {
            scratch = sandbox.newWorkingDirectory(spec.runId());
            workingDir = scratch;
        }
        try {
            if (sandbox.kind() == SandboxKind.BUBBLEWRAP) {
                // Set up, and with cgroups placed in the server's own (its memory bounded by it, not by
                // prlimit), exactly like a run's sandbox; then let go at once.
                Held held = holdSandboxed(spec, scratch, workingDir, true);
                NativeProcess process = held.process;
                if (process == null) {
                    throw new IOException(held.refused);
                }
                Sandbox.release(process);
                sandbox.work().letGo(spec.runId());
                RunCgroups.RunCgroup placed = held.cgroup;
                return new ServerProcess(
                        spec,
                        process,
                        Objects.requireNonNull(process.stdin(), "a server has a standard input"),
                        process.stdout(),
                        process.stderr(),
                        scratch,
                        () -> {
                            process.closeStreams();
                            if (placed != null) {
                                placed.remove();
                            }
                        });
            }
            Sandbox.Launch launch = sandbox.launchUnsandboxed(spec, workingDir);
            ProcessBuilder builder = new ProcessBuilder(launch.argv())
                    .directory(launch.directory().toFile());
            builder.environment().clear();
            builder.environment().putAll(launch.environment());
            Process process = Spawner.start(builder);
            return new ServerProcess(
                    spec,
                    Child.of(process),
                    process.getOutputStream(),
                    process.getInputStream(),
                    process.getErrorStream(),
                    scratch,
                    () -> {});
        } catch (IOException | RuntimeException e) {
            if (scratch != null) {
                Sandbox.removeWorkingDirectory(scratch);
            }
            throw e;
        }
    }

    /**
     * Removes a run's fresh working directory once no process of the run is left; one that could
     * still be running keeps it (it could change the tree while it is removed), and says so.
     *
     * @param treeGone whether the run's sandbox init was seen gone, taking its PID namespace with it
     */
    private static void removeWhenGone(ProcessSpec spec, Path scratch, boolean treeGone) {
        if (treeGone) {
            Sandbox.removeWorkingDirectory(scratch);
            return;
        }
        try {
            if (ProcessTree.awaitGone(ProcessTree.killMarked(marker(spec)), KILL_WAIT)) {
                Sandbox.removeWorkingDirectory(scratch);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.warn(
                "Run {}: a process of the run may still be alive; its working directory {} stays until the next start",
                spec.runId(),
                scratch);
    }

    private CaptureResult superviseSandboxed(
            Held held,
            NativeProcess process,
            Cancellation cancellation,
            Instant startedAt,
            java.util.concurrent.atomic.AtomicBoolean treeGone) {
        ProcessSpec spec = held.spec;
        try {
            Supervision run = new Supervision(spec, cancellation, startedAt, process::stdout, process::stderr);
            run.reportedBy(process);
            if (held.init > 0) {
                run.initReported(held.init);
            }
            run.capture();
            run.started(process);
            Sandbox.release(process);
            CaptureResult result = run.await();
            treeGone.set(run.treeGone());
            BubblewrapStatus status = run.report();
            if (result.termination() == Termination.EXITED && !status.commandStarted()) {
                // bubblewrap ended without starting the command: its own message is on stderr, the tool never ran.
                return CaptureResult.spawnFailed(
                        startedAt,
                        result.endedAt(),
                        "the sandbox could not be set up: "
                                + firstLine(result.stderr().text()));
            }
            if (held.cgroup != null && result.termination() == Termination.EXITED && held.cgroup.killedForMemory()) {
                return new CaptureResult(
                        result.startedAt(),
                        result.endedAt(),
                        null,
                        Termination.MEMORY_LIMIT,
                        null,
                        result.sandbox(),
                        result.stdout(),
                        result.stderr());
            }
            return result;
        } catch (RuntimeException | Error e) {
            // Whatever failed after the start, nothing of the run is left unsupervised (or outside its cgroup).
            log.error("Run {}: supervising its sandbox failed; killing it", spec.runId(), e);
            ProcessTree.kill(process.pid(), marker(spec));
            throw e;
        } finally {
            process.closeStreams();
        }
    }

    /**
     * Moves the sandbox's init, waiting before it starts the tool, into the run's cgroup (it still
     * waits, to be let go by {@link Sandbox#release}); returns why that failed, or null.
     */
    private static @Nullable String placeInCgroup(
            NativeProcess process, RunCgroups.RunCgroup cgroup, java.util.function.LongConsumer placed) {
        try {
            // Read on a platform thread of its own, bounded: a blocked pipe read would hold a virtual thread's carrier.
            java.util.concurrent.FutureTask<Long> read =
                    new java.util.concurrent.FutureTask<>(() -> BubblewrapStatus.readChildPid(process.output(0)));
            BlockingThreads.start("sandbox-status-" + process.pid(), read);
            long init;
            try {
                init = read.get(PLACEMENT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return "the sandbox did not report its init within " + PLACEMENT_WAIT.toSeconds() + " s";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted while placing the run in its cgroup";
            }
            if (init < 0) {
                return "the sandbox ended before it could be placed in its cgroup";
            }
            placed.accept(init);
            cgroup.place(init);
            return null;
        } catch (IOException e) {
            return "cannot place the run in its cgroup: " + e.getMessage();
        }
    }

    private static BubblewrapStatus readStatus(NativeProcess process) {
        try {
            return BubblewrapStatus.read(process.output(0));
        } catch (IOException e) {
            return new BubblewrapStatus(-1, false);
        }
    }

    private static String firstLine(String text) {
        String line = text.strip().lines().findFirst().orElse("bubblewrap said nothing");
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }

    private CaptureResult superviseUnsandboxed(
            ProcessSpec spec, Cancellation cancellation, Path workingDir, Instant startedAt) {
        Sandbox.Launch launch = sandbox.launchUnsandboxed(spec, workingDir);
        ProcessBuilder builder = new ProcessBuilder(launch.argv())
                .directory(launch.directory().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(NO_INPUT));
        builder.environment().clear();
        builder.environment().putAll(launch.environment());
        NamedPipes pipes;
        try {
            pipes = NamedPipes.create(sandbox.work().directory(), spec.runId());
        } catch (IOException e) {
            return CaptureResult.spawnFailed(
                    startedAt, clock.instant(), "cannot prepare the output pipes: " + e.getMessage());
        }
        try (pipes) {
            Supervision run =
                    new Supervision(spec, cancellation, startedAt, pipes.stdoutSource(), pipes.stderrSource());
            // The captures wait on the named pipes until the JDK opens them for the child.
            builder.redirectOutput(pipes.stdout().toFile())
                    .redirectError(pipes.stderr().toFile());
            run.capture();
            Process process;
            try {
                process = Spawner.start(builder);
            } catch (IOException e) {
                pipes.release();
                return CaptureResult.spawnFailed(
                        startedAt,
                        clock.instant(),
                        "cannot start '" + spec.argv().get(0) + "': " + rootMessage(e));
            }
            run.started(Child.of(process));
            return run.await();
        }
    }

    /** One process from its start to its end: its captures, what stopped it and what was killed. */
    private final class Supervision {

        private final ProcessSpec spec;
        private final Cancellation cancellation;
        private final Instant startedAt;
        private final String marker;
        private final AtomicReference<Child> child = new AtomicReference<>();
        private final AtomicReference<@Nullable Termination> stopped = new AtomicReference<>();
        private final Queue<ProcessTree.Member> killed = new ConcurrentLinkedQueue<>();
        private final StreamCapture stdout;
        private final StreamCapture stderr;
        /** Whether the sandbox's init was seen gone, and with it every process of the run. */
        private volatile boolean treeGone;
        /** bubblewrap, whose status pipe reports the sandbox's init; null without a sandbox. */
        private @Nullable NativeProcess bubblewrap;
        /** The sandbox's init as read from the report's first line (by the cgroup placement, or at the end), or -1. */
        private volatile long reportedInit = -1;
        /** bubblewrap's report, read once it has ended. */
        private @Nullable BubblewrapStatus report;

        /** Whether every process of the run is known gone without a sweep of /proc (see {@link #await}). */
        boolean treeGone() {
            return treeGone;
        }

        /** A supervision whose captures will read {@code out} and {@code err} once {@link #capture} starts them. */
        Supervision(
                ProcessSpec spec,
                Cancellation cancellation,
                Instant startedAt,
                StreamCapture.Source out,
                StreamCapture.Source err) {
            this.spec = spec;
            this.cancellation = cancellation;
            this.startedAt = startedAt;
            this.marker = marker(spec);
            this.stdout = new StreamCapture(
                    out,
                    spec.maxRetainedBytes(),
                    spec.maxObservedBytes(),
                    spec.redactor(),
                    () -> stop(Termination.OUTPUT_LIMIT));
            this.stderr = new StreamCapture(
                    err,
                    spec.maxRetainedBytes(),
                    spec.maxObservedBytes(),
                    spec.redactor(),
                    () -> stop(Termination.OUTPUT_LIMIT));
        }

        /**
         * Starts reading both streams, each on a (pooled) platform thread of its own: a read from a pipe that
         * was not made by the JDK's process API blocks the thread that carries it, and two such reads
         * on virtual threads would hold every carrier of a small machine while the tool prints nothing.
         */
        void capture() {
            BlockingThreads.start("capture-stdout-" + spec.runId(), stdout);
            BlockingThreads.start("capture-stderr-" + spec.runId(), stderr);
        }

        /** The sandbox's bubblewrap, whose status pipe names the sandbox's init. */
        void reportedBy(NativeProcess process) {
            bubblewrap = process;
        }

        /** The sandbox's init, as the cgroup placement read it from the report's first line. */
        void initReported(long init) {
            reportedInit = init;
        }

        /**
         * What bubblewrap reported on its status pipe, read to the end once (so only after
         * bubblewrap has ended); a sandbox that reported nothing readable counts as not started.
         */
        BubblewrapStatus report() {
            BubblewrapStatus read = report;
            if (read == null) {
                read = bubblewrap == null ? new BubblewrapStatus(-1, false) : readStatus(bubblewrap);
                report = read;
            }
            return read;
        }

        /**
         * Whether every process of the sandbox is known gone: bubblewrap has ended and the init it
         * reported (its first child, in the run's own PID namespace), killed if it is still there, is
         * gone, which the kernel allows only once every other process of the namespace is. Waits for
         * the init at most the kill wait.
         */
        private boolean sandboxGone(Child process) throws InterruptedException {
            NativeProcess sandboxed = bubblewrap;
            if (sandboxed == null || process.isAlive()) {
                return false;
            }
            long init = reportedInit;
            if (init < 0) {
                // The report's first line, written when the init was made; bubblewrap has ended, so
                // the line is in the pipe or nothing will be (the rest is read after, by report()).
                try {
                    init = BubblewrapStatus.readChildPid(sandboxed.output(0));
                } catch (IOException e) {
                    return false;
                }
                reportedInit = init;
            }
            if (init <= 0) {
                return false;
            }
            // The init dies with bubblewrap (its parent-death signal); killed here as well, so that a
            // tool that changed that signal (by tracing its init) cannot keep the namespace alive.
            ProcessTree.killNamespaceInit(init);
            return ProcessTree.awaitGone(init, KILL_WAIT);
        }

        private boolean sandboxGoneWithoutInterrupt(Child process) {
            try {
                return sandboxGone(process);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        /** Kills the process tree once, for {@code reason}; later reasons are ignored. */
        void stop(Termination reason) {
            Child process = child.get();
            if ((process == null || process.isAlive()) && stopped.compareAndSet(null, reason)) {
                log.info("Stopping run {} ({}): killing its process tree", spec.runId(), reason);
                if (process != null) {
                    killed.addAll(ProcessTree.kill(process.pid(), marker));
                }
            }
        }

        void started(Child process) {
            child.set(process);
            if (stopped.get() != null) {
                // A stream reached its limit before the process was known here.
                killed.addAll(ProcessTree.kill(process.pid(), marker));
            }
        }

        /** Waits for the end within the time limit, kills the tree when it is past, and collects what was observed. */
        CaptureResult await() {
            Child process = child.get();
            cancellation.onCancel(() -> stop(Termination.CANCELLED));
            try {
                if (!process.waitFor(spec.timeout().toMillis())) {
                    stop(Termination.TIMEOUT);
                    process.waitFor(KILL_WAIT.toMillis());
                }
                Instant endedAt = clock.instant();
                drain();
                awaitGone(spec, killed);
                Termination termination = stopped.get() == null ? Termination.EXITED : stopped.get();
                Integer exitCode = termination == Termination.EXITED && !process.isAlive() ? exitCode(process) : null;
                return new CaptureResult(
                        startedAt, endedAt, exitCode, termination, null, sandbox.kind(), stdout.seal(), stderr.seal());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop(Termination.CANCELLED);
                return new CaptureResult(
                        startedAt,
                        clock.instant(),
                        null,
                        Termination.CANCELLED,
                        null,
                        sandbox.kind(),
                        stdout.seal(),
                        stderr.seal());
            } finally {
                // bubblewrap ends as soon as the tool does, while the init of the sandbox's own PID
                // namespace (--unshare-pid) may still be taking down the rest of it; the kernel lets
                // the init go only after every other process of the namespace, so once it is gone
                // nothing of the run is left and no sweep of /proc is needed. When that is not known
                // (no sandbox, bubblewrap still alive, no init reported), sweep for the run's marker.
                if (sandboxGoneWithoutInterrupt(process)) {
                    treeGone = true;
                } else {
                    awaitGone(spec, ProcessTree.killMarked(marker));
                }
            }
        }

        /**
         * Waits for both streams to end. A process that left a child holding a pipe open does not
         * hang the run: after the drain deadline the run's leftover processes are killed, and after
         * a second deadline the pipe is abandoned with its end unseen.
         */
        private void drain() throws InterruptedException {
            long millis = drainTimeout.toMillis();
            if (stdout.awaitEnd(millis) && stderr.awaitEnd(millis)) {
                return;
            }
            List<ProcessTree.Member> leftovers = ProcessTree.killMarked(marker);
            killed.addAll(leftovers);
            log.info(
                    "Run {}: a stream stayed open after the process ended; killed {} leftover process(es)",
                    spec.runId(),
                    leftovers.size());
            if (stdout.awaitEnd(millis) && stderr.awaitEnd(millis)) {
                return;
            }
            log.warn("Run {}: a stream is still open; abandoning it without its end", spec.runId());
            stdout.abandon();
            stderr.abandon();
        }
    }

    private static @Nullable Integer exitCode(Child process) {
        try {
            return process.exitValue();
        } catch (IllegalStateException e) {
            return null;
        }
    }

    /** Returns once what was killed has gone, so that no process of the run outlives its result. */
    /** Waits for {@code killed} to be gone; false (and a warning) when one is still there after {@link #KILL_WAIT}. */
    private static boolean awaitGone(ProcessSpec spec, Collection<ProcessTree.Member> killed) {
        try {
            if (ProcessTree.awaitGone(killed, KILL_WAIT)) {
                return true;
            }
            log.warn("Run {}: a killed process was still there after {}", spec.runId(), KILL_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        int detail = message.lastIndexOf("error=");
        return detail >= 0 ? message.substring(detail) : message;
    }
}
