package dev.airlock.gateway.run;

import dev.airlock.gateway.capture.Cancellation;
import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.capture.ProcessSupervisor;
import dev.airlock.gateway.limits.TenantLimits;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.log.RunLog;
import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunState;
import dev.airlock.persistence.run.SandboxKind;
import dev.airlock.persistence.scope.Scopes;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Executes the runs this replica claimed, each on a virtual thread holding one of its tenant's
 * slots: {@link RunLaunch} says what process to start (or why not), the {@link ProcessSupervisor}
 * runs it in its sandbox, and the {@link ResultRecorder} records what it did. A run is executed
 * only after this replica claimed it (a conditional update from APPROVED to RUNNING, with a lease
 * that {@link RunLeases} renews; {@link ApprovedRunDispatcher} claims approved runs), so each runs
 * exactly once however many replicas there are. On shutdown the replica drains: it stops taking
 * and claiming runs, lets runs in flight finish within {@code airlock.executor.drain-timeout},
 * cancels the rest, and records every result before it stops.
 */
@Component
public class RunExecutor implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RunExecutor.class);

    private final RunLaunch launch;
    private final dev.airlock.gateway.upstream.HttpCalls calls;
    private final dev.airlock.gateway.mcpupstream.McpCalls mcpCalls;
    private final ResultRecorder recorder;
    private final ProcessSupervisor supervisor;
    private final RunCompletions completions;
    private final RunMetrics metrics;
    private final Scopes scopes;
    private final AgentSettings.Executor settings;
    private final ApplicationEventPublisher events;
    private final String node;
    private final Map<UUID, Cancellation> running = new ConcurrentHashMap<>();
    private volatile ExecutorService threads = newThreads();
    private volatile boolean draining;
    private volatile boolean lifecycleRunning;

    /** Guards {@link #closed} and every registration of a run in {@link #running}. */
    private final Object registration = new Object();

    /** Whether the drain has stopped registering runs (a run that reaches {@link #start} then never starts). */
    private boolean closed;

    private final LeaseFence fence;

    RunExecutor(
            RunLaunch launch,
            dev.airlock.gateway.upstream.HttpCalls calls,
            dev.airlock.gateway.mcpupstream.McpCalls mcpCalls,
            ResultRecorder recorder,
            ProcessSupervisor supervisor,
            RunCompletions completions,
            RunMetrics metrics,
            Scopes scopes,
            AirlockProperties properties,
            AgentSettings settings,
            ApplicationEventPublisher events,
            LeaseFence fence,
            @org.springframework.beans.factory.annotation.Value("${server.port:8080}") String port) {
        this.fence = fence;
        this.launch = launch;
        this.calls = calls;
        this.mcpCalls = mcpCalls;
        this.recorder = recorder;
        this.supervisor = supervisor;
        this.completions = completions;
        this.metrics = metrics;
        this.scopes = scopes;
        this.settings = settings.executor();
        this.events = events;
        this.node = properties.nodeId() != null ? properties.nodeId() : defaultNode(port);
        RunLog.useNode(node);
    }

    /** What this replica's runs are isolated by. */
    public SandboxKind sandbox() {
        return supervisor.sandbox();
    }

    /** This replica's name in run claims. */
    public String node() {
        return node;
    }

    /** Whether this replica is shutting down and takes no new runs. */
    public boolean draining() {
        return draining;
    }

    /** Whether no run executes here right now. */
    boolean idle() {
        return running.isEmpty();
    }

    /** The runs executing here, and those whose results wait in the spool: this replica's leases. */
    Set<UUID> leased() {
        Set<UUID> ids = new HashSet<>(running.keySet());
        ids.addAll(recorder.spooled());
        return ids;
    }

    /** The lease a claim made now holds until (by this replica's clock; the database times it by its own). */
    Instant leaseFrom(Instant now) {
        return now.plus(settings.leaseTtl());
    }

    /** How long a lease lasts from its claim or renewal. */
    Duration leaseTtl() {
        return settings.leaseTtl();
    }

    /**
     * Executes in the background a run this replica stored already claimed (RUNNING, claimed by
     * this node), holding {@code permit} until it ends.
     */
    void startNew(RunRecord run, TenantLimits.Permit permit, long claimStartedNanos) {
        if (run.state() != RunState.RUNNING || !node.equals(run.claimedBy())) {
            permit.close();
            throw new IllegalStateException("run " + run.id() + " is not claimed by " + node);
        }
        start(Execution.decidedHere(run), permit, claimStartedNanos);
    }

    /**
     * Whether the run executes on this replica under a lease that no peer can have found run out yet
     * ({@link LeaseFence}): until it ends here, nobody else writes its end, and its end here completes its
     * watchers ({@link RunCompletions}).
     */
    boolean executesUnderLease(UUID runId) {
        return running.containsKey(runId) && !fence.lapsed(runId, System.nanoTime());
    }

    /** Cancels a run executing on this replica; false if it is not here. */
    boolean cancelHere(UUID runId) {
        Cancellation cancellation = running.get(runId);
        if (cancellation == null) {
            return false;
        }
        cancellation.cancel();
        return true;
    }

    /**
     * Executes a run this replica claimed, in the background, holding {@code permit} until its process ends. A run
     * claimed as the drain ended (its claim raced the drain's start) is recorded as never started instead.
     *
     * @param claimStartedNanos when (monotonic) the statement that claimed it began: its lease runs from then at the
     *                          earliest ({@link LeaseFence})
     */
    void start(Execution execution, TenantLimits.Permit permit, long claimStartedNanos) {
        UUID runId = execution.runId();
        Cancellation cancellation = new Cancellation();
        synchronized (registration) {
            if (!closed) {
                fence.claimed(runId, claimStartedNanos);
                running.put(runId, cancellation);
                try {
                    threads.execute(() -> runAndRelease(execution, cancellation, permit));
                } catch (RuntimeException | Error e) {
                    // Not taken (no thread could be made): the slot goes back and the run is not renewed
                    // here; its lease runs out and the lease check ends it INTERRUPTED, as for a replica
                    // that stopped.
                    running.remove(runId);
                    fence.released(runId);
                    permit.close();
                    throw e;
                }
                return;
            }
        }
        neverStarted(execution, permit);
    }

    /**
     * Records a run that reached this replica after its drain stopped taking runs as failed to start, so that its
     * agent knows nothing ran (it would otherwise stay RUNNING until its lease ran out, and end INTERRUPTED, its
     * outcome unknown). It cannot go back to APPROVED: only a people's decision writes that state.
     */
    private void neverStarted(Execution execution, TenantLimits.Permit permit) {
        permit.close();
        UUID runId = execution.runId();
        Envelope ended = null;
        try (var context = RunLog.of(runId, execution.tenant());
                var scope = scopes.agent(execution.tenant()).open()) {
            log.warn("Run {} reached this replica after its drain; recording it as not started", runId);
            ended = recorder.record(
                    execution,
                    execution.run().tool(),
                    launch.notStarted(
                            execution, "the replica " + node + " was shutting down; the run was not started"));
        } catch (RuntimeException e) {
            // Neither written nor spooled (the database and the disk both refused): its lease runs out and it ends
            // INTERRUPTED, as for a replica that stopped.
            log.error("Run {}: could not record that it was not started", runId, e);
        } finally {
            completions.completed(runId, ended);
        }
    }

    private void runAndRelease(Execution execution, Cancellation cancellation, TenantLimits.Permit permit) {
        UUID runId = execution.runId();
        Envelope ended = null;
        try (permit;
                var context = RunLog.of(runId, execution.tenant());
                var scope = scopes.agent(execution.tenant()).open()) {
            ended = execute(execution, cancellation, permit);
        } catch (RuntimeException e) {
            log.error("Run {} could not be executed", runId, e);
        } finally {
            // Waiters get the envelope as written, before the run stops counting as executing here: a waiter
            // told to look again by the database's announcement of this end, meanwhile, sees it still executing
            // here and goes on waiting for this envelope instead of reading the run back.
            completions.completed(runId, ended);
            running.remove(runId);
            fence.released(runId);
            // One that started watching in between (it found the run executing here) reads it.
            completions.completed(runId);
        }
    }

    /** Executes the run and records its result; returns its envelope as written, or null ({@link ResultRecorder#record}). */
    private @Nullable Envelope execute(Execution execution, Cancellation cancellation, TenantLimits.Permit permit) {
        return switch (launch.plan(execution)) {
            case RunLaunch.Refuse refuse -> recorder.record(execution, refuse.tool(), refuse.result());
            case RunLaunch.Call call -> {
                CaptureResult result =
                        calls.call(execution.tenant(), call.definition(), call.request(), cancellation::onCancel);
                permit.close();
                yield recorder.record(execution, call.tool(), result.withAction(call.action()));
            }
            case RunLaunch.McpCall call -> {
                CaptureResult result = mcpCalls.call(
                        execution.runId(), execution.tenant(), call.definition(), call.call(), cancellation::onCancel);
                permit.close();
                yield recorder.record(execution, call.tool(), result.withAction(call.action()));
            }
            case RunLaunch.Start start -> {
                log.debug(
                        "Run {} starting: {} {}",
                        execution.runId(),
                        start.tool(),
                        start.spec().argv().get(0));
                CaptureResult result = supervisor.run(start.spec(), cancellation);
                // The process has ended: its slot is free before the result is recorded, so that whoever
                // sees the run ended can start the next one.
                permit.close();
                log.info(
                        "Run {} ended: {} exit={} stdout={}B stderr={}B",
                        execution.runId(),
                        result.termination(),
                        result.exitCode(),
                        result.stdout().observedBytes(),
                        result.stderr().observedBytes());
                yield recorder.record(execution, start.tool(), result.withAction(start.action()));
            }
        };
    }

    private static ExecutorService newThreads() {
        return Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("run-", 0).factory());
    }

    /** Takes runs (again, after a stop: a context may be stopped and started, as tests do). */
    @Override
    public void start() {
        boolean restart = threads.isShutdown();
        if (restart) {
            threads = newThreads();
        }
        synchronized (registration) {
            closed = false;
        }
        draining = false;
        lifecycleRunning = true;
        if (restart) {
            AvailabilityChangeEvent.publish(events, this, ReadinessState.ACCEPTING_TRAFFIC);
        }
    }

    @Override
    public boolean isRunning() {
        return lifecycleRunning;
    }

    /**
     * Drains: readiness goes down and no run is taken or claimed any more; runs in flight may
     * finish within the drain timeout; the rest are cancelled; every result is recorded (or kept
     * in the spool) before this returns.
     */
    @Override
    public void stop() {
        if (!lifecycleRunning) {
            return;
        }
        draining = true;
        AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
        long started = System.nanoTime();
        log.info("Draining: {} run(s) in flight, up to {}", running.size(), settings.drainTimeout());
        long deadline = started + settings.drainTimeout().toNanos();
        waitUntilIdle(deadline);
        synchronized (registration) {
            closed = true;
        }
        // A run registered between the first wait's end and the close (claimed as the drain began) gets the rest of it.
        waitUntilIdle(deadline);
        if (!running.isEmpty()) {
            log.warn("Drain timeout: cancelling {} run(s) still in flight", running.size());
            running.values().forEach(Cancellation::cancel);
            waitUntilIdle(System.nanoTime() + Duration.ofSeconds(10).toNanos());
        }
        threads.shutdown();
        metrics.drained(Duration.ofNanos(System.nanoTime() - started));
        log.info(
                "Drained in {} ms",
                Duration.ofNanos(System.nanoTime() - started).toMillis());
        lifecycleRunning = false;
    }

    private void waitUntilIdle(long deadlineNanos) {
        while (!running.isEmpty() && System.nanoTime() < deadlineNanos) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The host name and the server's port, so that replicas on one host differ; with a port chosen at
     * start ({@code server.port=0}) the process id stands in for it.
     */
    static String defaultNode(String port) {
        String instance =
                port.strip().equals("0") ? "pid" + ProcessHandle.current().pid() : port.strip();
        return hostName() + ":" + instance;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "airlock";
        }
    }
}
