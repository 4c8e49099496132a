package dev.airlock.gateway.run;

import dev.airlock.gateway.limits.TenantLimits;
import dev.airlock.gateway.policy.PolicyEvaluator;
import dev.airlock.gateway.policy.PolicyVerdict;
import dev.airlock.gateway.problem.Conflict;
import dev.airlock.gateway.problem.Refused;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.gateway.tool.Tool;
import dev.airlock.gateway.tool.ToolArguments;
import dev.airlock.gateway.tool.ToolCatalog;
import dev.airlock.gateway.tool.ToolSnapshots;
import dev.airlock.kernel.action.ActionRendering;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.digest.Sha256;
import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.kernel.problem.RunNotFound;
import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.persistence.envelope.RunViews;
import dev.airlock.persistence.run.RunIds;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import dev.airlock.persistence.run.RunState;
import dev.airlock.persistence.run.RunWrites;
import dev.airlock.rules.PolicyDecision;
import dev.airlock.rules.RuleInput;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests, finds, waits for and cancels runs on behalf of an agent. Every lookup is scoped to
 * the agent's tenant.
 */
@Service
public class RunService {

    /**
     * The longest a run's request may take to be recorded (its request time is taken first, its
     * {@code run.requested} event appended under the tenant's audit lock): half the time an evidence
     * bundle's range must have ended before it is exported (a minute), so no run requested within a
     * range can be recorded after the range's export read the database.
     */
    static final Duration RECORDING_LIMIT = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(RunService.class);

    private final ToolCatalog tools;
    private final ToolSnapshots snapshots;
    private final ApprovalRequests approvals;
    private final AuditLog audit;
    private final AirlockProperties properties;
    private final PolicyEvaluator policies;
    private final RunRepository runs;
    private final TenantLimits limits;
    private final RunExecutor executor;
    private final RunCompletions completions;
    private final TransactionTemplate transactions;
    private final JsonMapper json;
    private final Clock clock;
    private final RunMetrics metrics;
    private final RunViews views;
    private final RunWrites writes;

    RunService(
            ToolCatalog tools,
            ToolSnapshots snapshots,
            ApprovalRequests approvals,
            AuditLog audit,
            AirlockProperties properties,
            PolicyEvaluator policies,
            RunRepository runs,
            TenantLimits limits,
            RunExecutor executor,
            RunCompletions completions,
            TransactionTemplate transactions,
            JsonMapper json,
            Clock clock,
            RunMetrics metrics,
            RunViews views,
            RunWrites writes) {
        this.writes = writes;
        this.metrics = metrics;
        this.views = views;
        this.tools = tools;
        this.snapshots = snapshots;
        this.approvals = approvals;
        this.audit = audit;
        this.properties = properties;
        this.policies = policies;
        this.runs = runs;
        this.limits = limits;
        this.executor = executor;
        this.completions = completions;
        this.transactions = transactions;
        this.json = json;
        this.clock = clock;
    }

    /**
     * The outcome of a request.
     *
     * @param run     the run
     * @param created false when an idempotent retry returned an earlier run
     * @param ending  for a run started here for a caller that will wait: its end, watched from before it
     *                started ({@link #envelopeAfter}); else null
     */
    public record Submission(
            RunRecord run, boolean created, @Nullable CompletableFuture<Optional<Envelope>> ending) {

        /** A submission nobody watches the end of. */
        public Submission(RunRecord run, boolean created) {
            this(run, created, null);
        }
    }

    /**
     * Validates the request, applies the tool's policy and records the run; an approved run
     * starts executing before this returns.
     */
    public Submission submit(
            AgentIdentity agent,
            @Nullable String toolName,
            @Nullable Map<String, Object> arguments,
            @Nullable String idempotencyKey) {
        return submit(agent, toolName, arguments, idempotencyKey, null);
    }

    /**
     * Validates the request, applies the tool's policy rules and records the run, with the agent's
     * own words on why it asks; an approved run starts executing before this returns.
     *
     * @param reason the agent's reason: untrusted, sanitized and bounded here, shown to approvers as the
     *               agent's words, never part of a decision
     */
    public Submission submit(
            AgentIdentity agent,
            @Nullable String toolName,
            @Nullable Map<String, Object> arguments,
            @Nullable String idempotencyKey,
            @Nullable String reason) {
        return submit(agent, toolName, arguments, idempotencyKey, reason, Duration.ZERO);
    }

    /**
     * As {@link #submit(AgentIdentity, String, Map, String, String)}, for a caller that will wait up to
     * {@code wait} for the run's end ({@link #envelopeAfter}): a run that starts here is watched from
     * before it starts, so that its end needs no read of the database to be seen.
     */
    public Submission submit(
            AgentIdentity agent,
            @Nullable String toolName,
            @Nullable Map<String, Object> arguments,
            @Nullable String idempotencyKey,
            @Nullable String reason,
            Duration wait) {
        if (toolName == null || toolName.isBlank()) {
            throw InvalidRequest.field("tool", "Field 'tool' is required.");
        }
        Tool tool = tools.find(agent, toolName)
                .orElseThrow(() -> InvalidRequest.unknownTool(
                        toolName, tools.tools(agent).stream().map(Tool::name).toList()));
        ToolArguments checked = ToolArguments.check(tool, arguments);
        String argumentsJson = json.writeValueAsString(checked.values());
        String requestSha256 = Sha256.hex(tool.name() + "\n" + argumentsJson);

        if (idempotencyKey != null) {
            if (idempotencyKey.isBlank() || idempotencyKey.length() > 200) {
                throw InvalidRequest.field("Idempotency-Key", "Idempotency-Key must be 1 to 200 characters.");
            }
            Optional<RunRecord> earlier =
                    runs.findByTenantAndAgentAndIdempotencyKey(agent.tenant(), agent.agent(), idempotencyKey);
            if (earlier.isPresent()) {
                // A replay answers with the earlier run: a read of it, counted as one.
                limits.admitRead(agent);
                return replay(earlier.get(), requestSha256, idempotencyKey);
            }
        }
        if (executor.draining()) {
            throw dev.airlock.gateway.problem.Unavailable.draining();
        }
        limits.admitRequest(agent);

        String agentReason = AgentReasons.clean(reason);
        PolicyDecision decision = tool.rules()
                .decide(new RuleInput(
                        checked.values(), agent.agent(), agent.labels(), agent.tenant(), tool.name(), clock.instant()));
        PolicyVerdict verdict = policies.evaluate(decision.policy());
        RunRecord requested = RunRecord.request(
                        new RunRecord.NewRun(
                                RunIds.next(clock),
                                agent.tenant(),
                                agent.agent(),
                                tool.name(),
                                snapshots.id(tool),
                                argumentsJson,
                                json.writeValueAsString(checked.argv()),
                                requestSha256,
                                idempotencyKey,
                                tool.kind(),
                                recordedRequest(checked)),
                        clock.instant())
                .decidedBy(decision.rule(), agentReason);
        switch (verdict) {
            case PolicyVerdict.Auto auto -> {
                requested.approveAutomatically(clock.instant());
                Instant now = clock.instant();
                requested.startOn(executor.node(), now, executor.leaseFrom(now), executor.sandbox());
            }
            case PolicyVerdict.Required required -> requested.awaitApproval(clock.instant());
            case PolicyVerdict.Deny deny -> requested.deny(clock.instant());
        }
        // The tenant's slot is taken only now, and given back on any failure until the executor holds it:
        // a run that was never recorded (a lost database, a pool timeout, a failed commit) must not
        // keep it, or the tenant would be busy on this replica until it restarts.
        TenantLimits.Permit permit = verdict instanceof PolicyVerdict.Auto ? limits.execute(agent.tenant()) : null;
        RunRecord run;
        // An automatic run's lease is written with it, from the database's clock in its transaction, at or after this.
        long claimStarted = System.nanoTime();
        try {
            run = transactions.execute(status -> {
                if (verdict instanceof PolicyVerdict.Required) {
                    // Counted and inserted under the agent's lock: requests sent together cannot pass the limit
                    // together.
                    limits.admitApprovalRequest(agent, writes.pendingApprovalsLocked(agent.tenant(), agent.agent()));
                }
                writes.insert(requested);
                audit.append(
                        agent.tenant(),
                        AuditEventType.RUN_REQUESTED,
                        requested.id(),
                        "agent:" + agent.agent(),
                        Map.of(
                                "tool",
                                tool.name(),
                                "request",
                                requestSha256,
                                "state",
                                requested.state().name(),
                                "rule",
                                decision.rule()),
                        requested.createdAt());
                if (verdict instanceof PolicyVerdict.Required) {
                    ActionRendering action = (checked.mcp() != null
                                    ? RunActions.render(agent.tenant(), tool.snapshot(), checked.mcp())
                                    : RunActions.render(
                                            agent.tenant(),
                                            tool.snapshot(),
                                            checked.argv(),
                                            checked.request(),
                                            executor.sandbox()))
                            .decidedBy(decision.rule());
                    approvals.open(
                            requested.id(),
                            agent.tenant(),
                            tool.name(),
                            agent.agent(),
                            owner(agent),
                            action.text(),
                            action.digest(),
                            decision.policy(),
                            decision.rule(),
                            agentReason);
                }
                if (Duration.between(requested.createdAt(), clock.instant()).compareTo(RECORDING_LIMIT) > 0) {
                    // Recorded this late (behind a long retention purge holding the audit lock), the run
                    // could be missing from an evidence bundle of a range that ended since: nothing is kept.
                    throw dev.airlock.gateway.problem.Unavailable.recordingLate();
                }
                return requested;
            });
        } catch (RuntimeException | Error e) {
            if (permit != null) {
                permit.close();
            }
            if (e instanceof DataIntegrityViolationException conflict && idempotencyKey != null) {
                RunRecord earlier = runs.findByTenantAndAgentAndIdempotencyKey(
                                agent.tenant(), agent.agent(), idempotencyKey)
                        .orElseThrow(() -> conflict);
                return replay(earlier, requestSha256, idempotencyKey);
            }
            throw e;
        }
        try (var context = dev.airlock.kernel.log.RunLog.of(run.id(), agent.tenant())) {
            log.info(
                    "Run {} requested by {}/{}: tool {} -> {}",
                    run.id(),
                    agent.tenant(),
                    agent.agent(),
                    tool.name(),
                    run.state());
        }
        if (run.state() == RunState.DENIED) {
            throw Refused.byPolicy(tool.name(), run.id(), decision.rule());
        }
        if (permit == null) {
            return new Submission(run, true);
        }
        CompletableFuture<Optional<Envelope>> ending = wait.isZero() ? null : completions.watch(run.id());
        try {
            executor.startNew(run, permit, claimStarted);
        } catch (RuntimeException e) {
            if (ending != null) {
                completions.unwatch(run.id(), ending);
            }
            throw e;
        }
        return new Submission(run, true, ending);
    }

    /**
     * The envelope of a submitted run once it has ended, or as it is when {@code wait} has passed
     * (as {@link #await}). A run this replica started and watched ({@link Submission#ending}) is
     * answered with the envelope its result was written as, without reading it back.
     */
    public Envelope envelopeAfter(AgentIdentity agent, Submission submission, Duration wait) {
        UUID runId = submission.run().id();
        CompletableFuture<Optional<Envelope>> ending = submission.ending();
        if (ending == null) {
            return awaitEnvelope(agent, runId, wait);
        }
        try {
            var place = placeToWait(agent);
            if (place.isPresent()) {
                try (var held = place.get()) {
                    // Reads its state (as waitWatching says) once its lease may have run out: an end recorded
                    // otherwise is seen.
                    Envelope ended = waitWatching(agent, runId, wait, ending);
                    if (ended != null) {
                        return ended;
                    }
                }
            }
            return views.envelope(find(agent, runId));
        } finally {
            completions.unwatch(runId, ending);
        }
    }

    /**
     * As {@link #await}, as the run's envelope: a run that ends on this replica while the request
     * waits is answered with the envelope its result was written as, without reading it back.
     */
    public Envelope awaitEnvelope(AgentIdentity agent, UUID runId, Duration wait) {
        if (wait == null || wait.isZero()) {
            return views.envelope(find(agent, runId));
        }
        Waited waited = waited(agent, runId, wait);
        return waited.ended() != null ? waited.ended() : views.envelope(waited.run());
    }

    /** The request a call records (an HTTP tool's, or an upstream MCP tool's), or null for a process. */
    private @Nullable String recordedRequest(ToolArguments checked) {
        if (checked.mcp() != null) {
            return json.writeValueAsString(checked.mcp());
        }
        return checked.request() == null ? null : json.writeValueAsString(checked.request());
    }

    private @Nullable String owner(AgentIdentity agent) {
        var config = properties.agents(agent.tenant()).get(agent.agent());
        return config == null ? null : config.owner();
    }

    private Submission replay(RunRecord earlier, String requestSha256, String key) {
        if (!earlier.requestSha256().equals(requestSha256)) {
            throw Conflict.idempotencyKeyReused(key, earlier.id());
        }
        return new Submission(earlier, false);
    }

    /**
     * Counts one read of a run by {@code agent} (REST's envelope, output and cancel, MCP's built-in
     * tools) against its tenant's {@code reads-per-minute-per-agent}.
     *
     * @throws TooManyRequests when the agent is over its rate
     */
    public void admitRead(AgentIdentity agent) {
        limits.admitRead(agent);
    }

    /**
     * A run the agent may see: one it requested, or, for an agent configured with
     * {@code runs: tenant}, any run of its tenant; in both cases only runs of tools the agent may
     * use ({@code agents.<a>.tools}). Any other run is not found, exactly like one that does not exist.
     */
    public RunRecord find(AgentIdentity agent, UUID runId) {
        return runs.findByIdAndTenant(runId, agent.tenant())
                .filter(run -> visible(agent, run) && agent.mayUse(run.tool()))
                .orElseThrow(() -> RunNotFound.forId(runId));
    }

    private boolean visible(AgentIdentity agent, RunRecord run) {
        if (run.agent().equals(agent.agent())) {
            return true;
        }
        var config = properties.agents(agent.tenant()).get(agent.agent());
        return config != null && config.runs() == AirlockProperties.RunVisibility.TENANT;
    }

    /**
     * How many distinct approvals the run's approval request asks for (the deciding rule's count,
     * not the tool's default), or 0 for a run without one.
     */
    public int approversRequired(RunRecord run) {
        return approvals
                .of(run.id(), run.tenant())
                .map(r -> r.approversRequired())
                .orElse(0);
    }

    /**
     * The run once it has ended, or as it is when {@code wait} has passed. A request waits only
     * while its tenant has a free place to wait on this replica ({@code limits.concurrent-waits});
     * past that it gets the run as it is at once, as if its wait had passed, and may ask again.
     */
    public RunRecord await(AgentIdentity agent, UUID runId, Duration wait) {
        if (wait == null || wait.isZero()) {
            return find(agent, runId);
        }
        return waited(agent, runId, wait).run();
    }

    /**
     * What a wait for a run saw.
     *
     * @param run   the run as found last (after the wait, when there was one: what the agent may see is
     *              checked after the wait as before it)
     * @param ended the run's envelope as this replica wrote its result, when the run ended here meanwhile
     */
    private record Waited(RunRecord run, @Nullable Envelope ended) {}

    /** Waits for the run as {@link #await} says. */
    private Waited waited(AgentIdentity agent, UUID runId, Duration wait) {
        // Watched before it is read: an end after the read wakes this request, with no second read of its state.
        CompletableFuture<Optional<Envelope>> done = completions.watch(runId);
        try {
            RunRecord run = find(agent, runId);
            if (run.state().isTerminal()) {
                return new Waited(run, null);
            }
            var place = placeToWait(agent);
            if (place.isEmpty()) {
                return new Waited(run, null);
            }
            try (var held = place.get()) {
                Envelope ended = waitWatching(agent, runId, wait, done);
                return new Waited(find(agent, runId), ended);
            }
        } finally {
            completions.unwatch(runId, done);
        }
    }

    /**
     * A place for one request of the agent's tenant to wait for runs to end, if the tenant has one
     * free on this replica; empty (and counted in {@code airlock.waits.refused}) otherwise.
     */
    public Optional<TenantLimits.Permit> placeToWait(AgentIdentity agent) {
        var place = limits.tryWait(agent.tenant());
        if (place.isEmpty()) {
            metrics.waitRefused(agent.tenant());
            log.debug("Tenant {} has no free place to wait; answering at once", agent.tenant());
        }
        return place;
    }

    /**
     * As {@link #await}, for a caller that already holds a {@link #placeToWait place to wait}
     * (a call that waits in several steps, reporting progress between them).
     */
    public RunRecord awaitHolding(AgentIdentity agent, UUID runId, Duration wait) {
        RunRecord run = find(agent, runId);
        return worthWaiting(run, wait) ? waitForEnd(agent, runId, wait) : run;
    }

    private static boolean worthWaiting(RunRecord run, Duration wait) {
        return wait != null && !wait.isZero() && !run.state().isTerminal();
    }

    /** Waits for a run found not yet ended: watches for its end, then asks whether it ended, so an end in between is not missed. */
    private RunRecord waitForEnd(AgentIdentity agent, UUID runId, Duration wait) {
        CompletableFuture<Optional<Envelope>> done = completions.watch(runId);
        try {
            if (!ended(agent, runId)) {
                waitWatching(agent, runId, wait, done);
            }
            return find(agent, runId);
        } finally {
            completions.unwatch(runId, done);
        }
    }

    /**
     * Whether the run has ended (or is gone). Not while it executes here under its lease: only its end here can end
     * it, and that completes its watchers ({@link RunExecutor#executesUnderLease}). Otherwise read from the database:
     * it may run on another replica, or be ended by one once its lease here ran out.
     */
    private boolean ended(AgentIdentity agent, UUID runId) {
        if (executor.executesUnderLease(runId)) {
            return false;
        }
        metrics.waitStateRead(agent.tenant());
        return runs.findStateByIdAndTenant(runId, agent.tenant())
                .map(RunState::isTerminal)
                .orElse(true);
    }

    /**
     * Waits until {@code watched} completes (this replica finished the run) or the time is up. In
     * between (another replica may be executing the run, or end it once its lease here ran out; see
     * {@link #ended}) it reads the run's state when the database announces the run's end
     * ({@link RunCompletions#lookAgain}), and otherwise every {@link RunCompletions#recheckMillis}: 200 ms while
     * this replica hears no announcements, {@code airlock.executor.wait-recheck-interval} while it does.
     *
     * @return the run's envelope as this replica wrote its result, or null when the caller must read the run
     */
    private @Nullable Envelope waitWatching(
            AgentIdentity agent, UUID runId, Duration wait, CompletableFuture<Optional<Envelope>> watched) {
        long deadline = System.nanoTime() + wait.toNanos();
        CompletableFuture<Optional<Envelope>> done = watched;
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                try {
                    long step = Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, completions.recheckMillis());
                    return done.get(step, TimeUnit.MILLISECONDS).orElse(null);
                } catch (TimeoutException e) {
                    if (ended(agent, runId)) {
                        return null;
                    }
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof RunCompletions.LookAgain)) {
                        throw new IllegalStateException(e);
                    }
                    // Watched again before it is read: an end after the read wakes this request again.
                    done = completions.watch(runId);
                    if (ended(agent, runId)) {
                        return null;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
        } finally {
            if (done != watched) {
                completions.unwatch(runId, done);
            }
        }
    }

    /**
     * Cancels the run: one that has not started ends CANCELLED at once, closing its approval
     * request; a running one has its process tree killed (here, or by the replica running it).
     */
    public RunRecord cancel(AgentIdentity agent, UUID runId) {
        RunRecord run = find(agent, runId);
        if (run.state().isTerminal()) {
            throw Conflict.runEnded(runId, run.state().name());
        }
        if (run.state() == RunState.RUNNING) {
            if (!executor.cancelHere(runId)) {
                transactions.executeWithoutResult(status -> {
                    RunRecord fresh = find(agent, runId);
                    if (fresh.state() == RunState.RUNNING) {
                        fresh.requestCancel(clock.instant());
                        runs.save(fresh);
                    }
                });
            }
            return await(agent, runId, Duration.ofSeconds(5));
        }
        try {
            return transactions.execute(status -> {
                // Close the approval request first: its row lock orders the cancel with any decision.
                approvals.cancel(runId, agent.tenant(), "agent:" + agent.agent());
                RunRecord fresh = find(agent, runId);
                fresh.cancelBeforeStart(clock.instant());
                audit.append(
                        agent.tenant(),
                        AuditEventType.RUN_CANCELLED,
                        runId,
                        "agent:" + agent.agent(),
                        Map.of("before", "start"),
                        clock.instant());
                return runs.saveAndFlush(fresh);
            });
        } catch (org.springframework.orm.ObjectOptimisticLockingFailureException
                | dev.airlock.persistence.run.IllegalRunTransition e) {
            // It started (or ended) in the meantime: cancel it as a running run.
            return cancel(agent, runId);
        }
    }
}
