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
import java.util.Queue;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Executes approved runs. A run is executed only after this replica claimed it (a conditional
 * update from APPROVED to RUNNING), so each runs exactly once however many replicas there are.
 * Runs claimed here execute on virtual threads, each holding one of its tenant's slots.
 */
@Component
public class RunExecutor implements SmartInitializingSingleton, DisposableBean, ApprovedRunStarter {

    private static final Logger log = LoggerFactory.getLogger(RunExecutor.class);

    private final RunClaims claims;
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
    private final ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("run-", 0).factory());
    private final Map<UUID, Cancellation> running = new ConcurrentHashMap<>();
    private final Queue<Unrecorded> unrecorded = new ConcurrentLinkedQueue<>();
    private final Retry retry = Retry.of("run-results", RetryConfig.custom()
            .maxAttempts(5)
            .intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofMillis(100), 2.0))
            .retryExceptions(DataAccessException.class, TransactionException.class)
            .build());

    RunExecutor(RunClaims claims, RunRepository runs, ToolSnapshots snapshots, ApprovalService approvals, RunResults results,
            RunCompletions completions, ProcessSupervisor supervisor, SecretSource secrets, TenantLimits limits,
            AirlockProperties properties, JsonMapper json, Clock clock) {
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
    }

    /** What this replica's runs are isolated by. */
    public SandboxKind sandbox() {
        return supervisor.sandbox();
    }

    /** This replica's name in run claims. */
    public String node() {
        return node;
    }

    @Override
    public void afterSingletonsInstantiated() {
        int orphans = claims.failOrphans(node, "the gateway stopped while the run was executing", clock.instant());
        if (orphans > 0) {
            log.warn("Marked {} run(s) FAILED that were executing when this node ({}) last stopped", orphans, node);
        }
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
            try (permit) {
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
                record(runId, CaptureResult.spawnFailed(now, now, "the action differs from the action humans approved"));
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
                record(runId, CaptureResult.spawnFailed(now, now, "secret " + secret.getKey() + " is not available ("
                        + e.getMessage() + ")"));
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
        record(runId, result);
    }

    private void record(UUID runId, CaptureResult result) {
        try {
            Retry.decorateRunnable(retry, () -> results.record(runId, result)).run();
        } catch (DataAccessException | TransactionException e) {
            log.error("Run {}: could not record its result yet ({}); keeping it to retry", runId, e.getMessage());
            unrecorded.add(new Unrecorded(runId, result, clock.instant()));
        }
    }

    /** Retries results the database refused earlier, for up to an hour each. */
    @Scheduled(fixedDelayString = "${airlock.executor.retry-interval:PT30S}")
    void retryUnrecorded() {
        for (int i = unrecorded.size(); i > 0; i--) {
            Unrecorded item = unrecorded.poll();
            if (item == null) {
                return;
            }
            try {
                results.record(item.runId(), item.result());
                completions.completed(item.runId());
                log.info("Run {}: result recorded after a delay", item.runId());
            } catch (DataAccessException | TransactionException e) {
                if (Duration.between(item.since(), clock.instant()).compareTo(Duration.ofHours(1)) < 0) {
                    unrecorded.add(item);
                } else {
                    log.error("Run {}: giving up recording its result; stdout sha256={} stderr sha256={}", item.runId(),
                            item.result().stdout() == null ? "-" : item.result().stdout().sha256(),
                            item.result().stderr() == null ? "-" : item.result().stderr().sha256());
                }
            }
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
        {
            int wanted = Math.min(limits.freeSlots(tenant), claims.countApproved(tenant));
            List<TenantLimits.Permit> permits = new java.util.ArrayList<>();
            for (int free = wanted; free > 0; free--) {
                limits.tryExecute(tenant).ifPresent(permits::add);
            }
            if (permits.isEmpty()) {
                return;
            }
            try {
                for (UUID runId : claims.claimNext(node, tenant, permits.size(), clock.instant())) {
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
        if (running.isEmpty()) {
            return;
        }
        claims.cancelRequested(node).forEach(this::cancelHere);
    }

    @Override
    public void destroy() {
        running.values().forEach(Cancellation::cancel);
        threads.shutdown();
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "airlock";
        }
    }

    private record Unrecorded(UUID runId, CaptureResult result, Instant since) {
    }

    /** What executing a run needs, taken from the run as it was stored. */
    private record Execution(UUID runId, String tenant, long toolSnapshotId, String argvJson, boolean approvalRequired) {
    }
}
