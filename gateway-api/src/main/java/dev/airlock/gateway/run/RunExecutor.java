package dev.airlock.gateway.run;

import dev.airlock.approval.request.ApprovalService;
import dev.airlock.gateway.approval.ActionRendering;
import dev.airlock.gateway.approval.ApprovedRunStarter;
import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.capture.Cancellation;
import dev.airlock.gateway.capture.ProcessSpec;
import dev.airlock.gateway.capture.ProcessSupervisor;
import dev.airlock.gateway.capture.SecretReference;
import dev.airlock.gateway.capture.SecretSource;
import dev.airlock.gateway.config.AirlockProperties;
import dev.airlock.gateway.limits.TenantLimits;
import dev.airlock.gateway.tool.ToolSnapshot;
import dev.airlock.gateway.tool.ToolSnapshots;
import dev.airlock.persistence.run.RunClaims;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import dev.airlock.persistence.run.SandboxKind;
import dev.airlock.sanitizer.SecretRedactor;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Executes approved runs. A run is executed only after this replica claimed it (a conditional
 * update from APPROVED to RUNNING, with a lease that {@link RunLeases} renews), so each runs
 * exactly once however many replicas there are. Runs claimed here execute on virtual threads,
 * each holding one of its tenant's slots. A result the database refuses is kept in the
 * {@link ResultSpool} on disk until it is written. On shutdown the replica drains: it stops
 * taking and claiming runs, lets runs in flight finish within {@code airlock.executor.drain-timeout},
 * cancels the rest, and records every result before it stops.
 */
@Component
public class RunExecutor implements SmartInitializingSingleton, SmartLifecycle, ApprovedRunStarter {

    private static final Logger log = LoggerFactory.getLogger(RunExecutor.class);

    private final RunClaims claims;
    private final dev.airlock.gateway.database.Scopes scopes;
    private final RunRepository runs;
    private final ToolSnapshots snapshots;
    private final ApprovalService approvals;
    private final RunResults results;
    private final RunCompletions completions;
    private final ProcessSupervisor supervisor;
    private final SecretSource secrets;
    private final TenantLimits limits;
    private final AirlockProperties properties;
    private final JsonMapper json;
    private final Clock clock;
    private final String node;
    private volatile ExecutorService threads = newThreads();
    private final Map<UUID, Cancellation> running = new ConcurrentHashMap<>();
    private final ResultSpool spool;
    private final ApplicationEventPublisher events;
    private final RunMetrics metrics;
    private volatile boolean draining;
    /** Whether this replica runs the agent side; a console-only replica executes nothing. */
    private final boolean agentSide;
    private volatile boolean lifecycleRunning;
    private final Retry retry = Retry.of("run-results", RetryConfig.custom()
            .maxAttempts(5)
            .intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofMillis(100), 2.0))
            .retryExceptions(DataAccessException.class, TransactionException.class)
            .build());

    RunExecutor(RunClaims claims, RunRepository runs, ToolSnapshots snapshots, ApprovalService approvals, RunResults results,
            RunCompletions completions, ProcessSupervisor supervisor, SecretSource secrets, TenantLimits limits,
            AirlockProperties properties, JsonMapper json, Clock clock, ResultSpool spool, ApplicationEventPublisher events,
            RunMetrics metrics, dev.airlock.gateway.database.Scopes scopes) {
        this.scopes = scopes;
        this.spool = spool;
        this.events = events;
        this.metrics = metrics;
        this.claims = claims;
        this.runs = runs;
        this.snapshots = snapshots;
        this.approvals = approvals;
        this.results = results;
        this.completions = completions;
        this.supervisor = supervisor;
        this.secrets = secrets;
        this.limits = limits;
        this.properties = properties;
        this.json = json;
        this.clock = clock;
        this.node = properties.nodeId() != null ? properties.nodeId() : hostName();
        this.agentSide = properties.roles().contains(dev.airlock.gateway.config.Side.AGENT_API);
        dev.airlock.gateway.support.RunLog.useNode(node);
    }

    /** What this replica's runs are isolated by. */
    public SandboxKind sandbox() {
        return supervisor.sandbox();
    }

    /** This replica's name in run claims. */
    public String node() {
        return node;
    }

    /** Writes the results this replica kept in its spool before it last stopped. */
    @Override
    public void afterSingletonsInstantiated() {
        replaySpool();
    }

    /** Whether this replica is shutting down and takes no new runs. */
    public boolean draining() {
        return draining;
    }

    /** The runs executing here, and those whose results wait in the spool: this replica's leases. */
    Set<UUID> leased() {
        Set<UUID> ids = new HashSet<>(running.keySet());
        ids.addAll(spool.runs());
        return ids;
    }

    /** The lease a claim made now holds until. */
    Instant leaseFrom(Instant now) {
        return now.plus(properties.executor().leaseTtl());
    }

    /**
     * Executes in the background a run this replica stored already claimed (RUNNING, claimed by
     * this node), holding {@code permit} until it ends.
     */
    void startNew(RunRecord run, TenantLimits.Permit permit) {
        if (run.state() != dev.airlock.persistence.run.RunState.RUNNING || !node.equals(run.claimedBy())) {
            permit.close();
            throw new IllegalStateException("run " + run.id() + " is not claimed by " + node);
        }
        start(new Execution(run.id(), run.tenant(), run.toolSnapshotId(), run.argvJson(), false), permit);
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

    private void start(Execution execution, TenantLimits.Permit permit) {
        UUID runId = execution.runId();
        Cancellation cancellation = new Cancellation();
        running.put(runId, cancellation);
        threads.execute(() -> {
            try (permit; var context = dev.airlock.gateway.support.RunLog.of(runId, execution.tenant());
                    var scope = scopes.agent(execution.tenant()).open()) {
                execute(execution, cancellation, permit);
            } catch (RuntimeException e) {
                log.error("Run {} could not be executed", runId, e);
            } finally {
                running.remove(runId);
                completions.completed(runId);
            }
        });
    }

    private void execute(Execution execution, Cancellation cancellation, TenantLimits.Permit permit) {
        UUID runId = execution.runId();
        ToolSnapshot tool = snapshots.definition(execution.tenant(), execution.toolSnapshotId());
        List<String> argv = json.readValue(execution.argvJson(), new TypeReference<List<String>>() { });
        if (execution.approvalRequired()) {
            String digest = ActionRendering.of(execution.tenant(), tool, argv, supervisor.sandbox()).digest();
            boolean approved = approvals.find(runId, java.util.Set.of(execution.tenant()))
                    .filter(v -> v.request().status() == dev.airlock.persistence.approval.ApprovalStatus.APPROVED)
                    .filter(v -> v.request().digest().equals(digest))
                    .isPresent();
            if (!approved) {
                Instant now = clock.instant();
                log.error("Run {}: the action to execute is not the approved action; refusing to run it", runId);
                record(execution, tool.name(), CaptureResult.spawnFailed(now, now,
                        "the action differs from the action humans approved"));
                return;
            }
        }
        Map<String, String> environment = new HashMap<>(tool.env());
        environment.put("PATH", properties.capture().path());
        Map<String, String> injected = new TreeMap<>();
        for (Map.Entry<String, String> secret : tool.secrets().entrySet()) {
            try {
                injected.put(secret.getKey(), SecretReference.parse(secret.getValue()).read(secrets));
            } catch (IllegalArgumentException | SecretReference.SecretUnavailable e) {
                Instant now = clock.instant();
                record(execution, tool.name(), CaptureResult.spawnFailed(now, now, "secret " + secret.getKey()
                        + " is not available (" + e.getMessage() + ")"));
                return;
            }
        }
        environment.putAll(injected);
        ProcessSpec spec = new ProcessSpec(runId, tool.name(), argv, tool.workingDir() == null ? null : Path.of(tool.workingDir()),
                environment, Duration.parse(tool.timeout()), tool.maxRetainedBytes(), tool.maxObservedBytes(),
                SecretRedactor.of(injected), tool.sandboxOrDefaults());
        log.debug("Run {} starting: {} {}", runId, tool.name(), argv.get(0));
        CaptureResult result = supervisor.run(spec, cancellation);
        // The process has ended: its slot is free before the result is recorded, so that whoever
        // sees the run ended can start the next one.
        permit.close();
        log.info("Run {} ended: {} exit={} stdout={}B stderr={}B", runId, result.termination(), result.exitCode(),
                result.stdout().observedBytes(), result.stderr().observedBytes());
        record(execution, tool.name(), result);
    }

    private void record(Execution execution, String tool, CaptureResult result) {
        UUID runId = execution.runId();
        metrics.ended(execution.tenant(), tool, result);
        try {
            Retry.decorateRunnable(retry, () -> results.record(runId, result)).run();
        } catch (DataAccessException | TransactionException e) {
            // Never only in memory: the result waits on disk, and this replica keeps its lease.
            log.error("Run {}: could not record its result yet ({}); keeping it in the spool", runId, e.getMessage());
            spool.keep(runId, result);
        }
    }

    /** Writes the results kept in the spool, oldest first; each stays there until it is written. */
    @Scheduled(fixedDelayString = "${airlock.executor.retry-interval:PT5S}")
    void replaySpool() {
        if (!agentSide) {
            return;
        }
        scopes.gatewayJobs().run(this::replaySpooled);
    }

    private void replaySpooled() {
        for (UUID runId : spool.runs()) {
            if (running.containsKey(runId)) {
                continue;
            }
            spool.read(runId).ifPresent(result -> {
                try {
                    results.record(runId, result);
                    spool.remove(runId);
                    completions.completed(runId);
                    log.info("Run {}: result recorded from the spool", runId);
                } catch (dev.airlock.persistence.run.IllegalRunTransition e) {
                    // Already recorded (a write that succeeded before its answer was lost): nothing is missing.
                    log.warn("Run {}: spooled result not needed any more ({})", runId, e.getMessage());
                    spool.remove(runId);
                } catch (DataAccessException | TransactionException e) {
                    log.debug("Run {}: the database still refuses its result: {}", runId, e.getMessage());
                }
            });
        }
    }

    /** Picks up approved runs that no request started (approved later, or waiting for a free slot). */
    @Scheduled(fixedDelayString = "${airlock.executor.poll-interval:PT0.5S}")
    void claimApproved() {
        properties.tenants().keySet().forEach(this::startApproved);
    }

    /** Claims and starts the tenant's approved runs, as many as it has free slots. */
    @Override
    public void startApproved(String tenant) {
        if (draining || !agentSide) {
            return;
        }
        try (var scope = scopes.agent(tenant).open()) {
            int wanted = Math.min(limits.freeSlots(tenant), claims.countApproved(tenant));
            List<TenantLimits.Permit> permits = new java.util.ArrayList<>();
            for (int free = wanted; free > 0; free--) {
                limits.tryExecute(tenant).ifPresent(permits::add);
            }
            if (permits.isEmpty()) {
                return;
            }
            try {
                Instant now = clock.instant();
                for (UUID runId : claims.claimNext(node, tenant, permits.size(), now, leaseFrom(now))) {
                    RunRecord run = runs.findById(runId).orElseThrow();
                    start(new Execution(runId, run.tenant(), run.toolSnapshotId(), run.argvJson(), run.approvalRequired()),
                            permits.removeLast());
                }
            } finally {
                permits.forEach(TenantLimits.Permit::close);
            }
        }
    }

    /** Stops runs executing here that a request on another replica asked to cancel. */
    @Scheduled(fixedDelayString = "${airlock.executor.cancel-poll-interval:PT0.25S}")
    void honourCancelRequests() {
        if (!agentSide) {
            return;
        }
        if (running.isEmpty()) {
            return;
        }
        scopes.gatewayJobs().call(() -> claims.cancelRequested(node)).forEach(this::cancelHere);
    }

    private static ExecutorService newThreads() {
        return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("run-", 0).factory());
    }

    /** Takes runs (again, after a stop: a context may be stopped and started, as tests do). */
    @Override
    public void start() {
        boolean restart = threads.isShutdown();
        if (restart) {
            threads = newThreads();
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
        log.info("Draining: {} run(s) in flight, up to {}", running.size(), properties.executor().drainTimeout());
        long deadline = started + properties.executor().drainTimeout().toNanos();
        waitUntilIdle(deadline);
        if (!running.isEmpty()) {
            log.warn("Drain timeout: cancelling {} run(s) still in flight", running.size());
            running.values().forEach(Cancellation::cancel);
            waitUntilIdle(System.nanoTime() + Duration.ofSeconds(10).toNanos());
        }
        threads.shutdown();
        metrics.drained(Duration.ofNanos(System.nanoTime() - started));
        log.info("Drained in {} ms", Duration.ofNanos(System.nanoTime() - started).toMillis());
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

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "airlock";
        }
    }

    /** What executing a run needs, taken from the run as it was stored. */
    private record Execution(UUID runId, String tenant, long toolSnapshotId, String argvJson, boolean approvalRequired) {
    }
}
