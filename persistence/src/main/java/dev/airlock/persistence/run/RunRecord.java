package dev.airlock.persistence.run;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One requested action and what became of it. State changes only through the guarded methods,
 * each of which refuses a transition the life cycle does not allow.
 */
@Entity
@Table(name = "runs", schema = "airlock")
@org.hibernate.annotations.DynamicUpdate
public class RunRecord extends StoredOnce<UUID> {

    @Id
    private UUID id;

    @Column(nullable = false, updatable = false)
    private String tenant;

    @Column(nullable = false, updatable = false)
    private String agent;

    @Column(nullable = false, updatable = false)
    private String tool;

    @Column(name = "tool_snapshot_id", nullable = false, updatable = false)
    private long toolSnapshotId;

    @Column(nullable = false, updatable = false)
    private String arguments;

    @Column(nullable = false, updatable = false)
    private String argv;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, updatable = false)
    private ActionKind kind;

    @Column(updatable = false)
    private @Nullable String request;

    @Column(name = "call")
    private @Nullable String call;

    @Column(name = "policy_rule", updatable = false)
    private @Nullable String policyRule;

    @Column(name = "agent_reason", updatable = false)
    private @Nullable String agentReason;

    @Column(name = "request_sha256", nullable = false, updatable = false)
    private String requestSha256;

    @Column(name = "idempotency_key", updatable = false)
    private @Nullable String idempotencyKey;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private RunState state;

    @Column(name = "approval_required", nullable = false)
    private boolean approvalRequired;

    @Column(name = "cancel_requested", nullable = false)
    private boolean cancelRequested;

    @Column(name = "claimed_by")
    private @Nullable String claimedBy;

    @Column(name = "lease_until")
    private @Nullable Instant leaseUntil;

    @Column(name = "exit_code")
    private @Nullable Integer exitCode;

    @Enumerated(EnumType.STRING)
    private @Nullable Termination termination;

    private @Nullable String failure;

    @Enumerated(EnumType.STRING)
    private @Nullable SandboxKind sandbox;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @Column(name = "started_at")
    private @Nullable Instant startedAt;

    @Column(name = "ended_at")
    private @Nullable Instant endedAt;

    @Version
    private long version;

    protected RunRecord() {}

    /**
     * A copy of this record as it is now, which no persistence context manages: what a run's end is
     * applied to ({@link #finish}, {@link #finishCall}, {@link #failToStart}) for {@link RunWrites} to
     * write, without reading the run back and without changing the record the executor holds.
     */
    public RunRecord copy() {
        RunRecord copy = new RunRecord();
        copy.id = id;
        copy.tenant = tenant;
        copy.agent = agent;
        copy.tool = tool;
        copy.toolSnapshotId = toolSnapshotId;
        copy.arguments = arguments;
        copy.argv = argv;
        copy.kind = kind;
        copy.request = request;
        copy.call = call;
        copy.policyRule = policyRule;
        copy.agentReason = agentReason;
        copy.requestSha256 = requestSha256;
        copy.idempotencyKey = idempotencyKey;
        copy.state = state;
        copy.approvalRequired = approvalRequired;
        copy.cancelRequested = cancelRequested;
        copy.claimedBy = claimedBy;
        copy.leaseUntil = leaseUntil;
        copy.exitCode = exitCode;
        copy.termination = termination;
        copy.failure = failure;
        copy.sandbox = sandbox;
        copy.createdAt = createdAt;
        copy.updatedAt = updatedAt;
        copy.startedAt = startedAt;
        copy.endedAt = endedAt;
        copy.version = version;
        copy.stored();
        return copy;
    }

    private RunRecord(NewRun request, Instant now) {
        this.id = Objects.requireNonNull(request.id());
        this.tenant = request.tenant();
        this.agent = request.agent();
        this.tool = request.tool();
        this.toolSnapshotId = request.toolSnapshotId();
        this.arguments = request.argumentsJson();
        this.argv = request.argvJson();
        this.kind = request.kind();
        this.request = request.requestJson();
        if ((kind == ActionKind.PROCESS) != (this.request == null)) {
            throw new IllegalArgumentException("a process has an argument vector; a call has a recorded request");
        }
        this.requestSha256 = request.requestSha256();
        this.idempotencyKey = request.idempotencyKey();
        this.state = RunState.REQUESTED;
        this.createdAt = micros(now);
        this.updatedAt = micros(now);
    }

    /** A new run in state {@link RunState#REQUESTED}. */
    public static RunRecord request(NewRun request, Instant now) {
        return new RunRecord(request, now);
    }

    /**
     * What an agent asked for, already validated and rendered.
     *
     * @param id              the run id (UUIDv7), created before anything runs
     * @param tenant          the agent's tenant
     * @param agent           the agent
     * @param tool            the tool name
     * @param toolSnapshotId  the tool definition the run was requested under
     * @param argumentsJson   the validated arguments, as JSON
     * @param argvJson        the rendered argument vector, as a JSON array of strings ({@code []} for a call)
     * @param requestSha256   digest of tool and arguments, to compare idempotent retries
     * @param idempotencyKey  the agent's idempotency key, or null
     * @param kind            what the action is
     * @param requestJson     for a call: the request as it will be sent, credentials excepted, as JSON; null for a process
     */
    public record NewRun(
            UUID id,
            String tenant,
            String agent,
            String tool,
            long toolSnapshotId,
            String argumentsJson,
            String argvJson,
            String requestSha256,
            @Nullable String idempotencyKey,
            ActionKind kind,
            @Nullable String requestJson) {

        /** A run whose action is a process. */
        public NewRun(
                UUID id,
                String tenant,
                String agent,
                String tool,
                long toolSnapshotId,
                String argumentsJson,
                String argvJson,
                String requestSha256,
                @Nullable String idempotencyKey) {
            this(
                    id,
                    tenant,
                    agent,
                    tool,
                    toolSnapshotId,
                    argumentsJson,
                    argvJson,
                    requestSha256,
                    idempotencyKey,
                    ActionKind.PROCESS,
                    null);
        }
    }

    /**
     * Records, on a run not yet stored, the policy rule that decided it and the agent's own words
     * on why it asks (untrusted, already sanitized and bounded; never part of a decision).
     */
    public RunRecord decidedBy(String policyRule, @Nullable String agentReason) {
        if (!isNew()) {
            throw new IllegalStateException("run " + id + " is stored already");
        }
        this.policyRule = policyRule;
        this.agentReason = agentReason;
        return this;
    }

    /** The policy rule that decided the run; null for runs requested before rules existed. */
    public @Nullable String policyRule() {
        return policyRule;
    }

    /** The agent's own words on why it asked (untrusted data), or null. */
    public @Nullable String agentReason() {
        return agentReason;
    }

    /** Policy allows the run without a human. */
    public void approveAutomatically(Instant now) {
        require(RunState.REQUESTED);
        approvalRequired = false;
        moveTo(RunState.APPROVED, now);
    }

    /**
     * This node takes the approved run to execute it now. Only for a run not yet stored: stored
     * runs are claimed through {@link RunClaims}, which guarantees one executor.
     */
    public void startOn(String node, Instant now, Instant leaseUntil, SandboxKind sandbox) {
        require(RunState.APPROVED);
        if (!isNew() || claimedBy != null) {
            throw new IllegalStateException("run " + id + " is already stored; claim it through RunClaims");
        }
        if (!leaseUntil.isAfter(now)) {
            throw new IllegalArgumentException("a lease must end after it starts");
        }
        claimedBy = node;
        this.leaseUntil = micros(leaseUntil);
        // A call to an upstream runs in no sandbox; the run records the sandbox only of a process.
        this.sandbox = kind == ActionKind.PROCESS ? java.util.Objects.requireNonNull(sandbox, "sandbox") : null;
        startedAt = micros(now);
        moveTo(RunState.RUNNING, now);
    }

    /** Policy wants a human decision first. */
    public void awaitApproval(Instant now) {
        require(RunState.REQUESTED);
        approvalRequired = true;
        moveTo(RunState.PENDING_APPROVAL, now);
    }

    /** Policy refuses the tool. (People deny a parked run through its approval request, which the database settles.) */
    public void deny(Instant now) {
        require(RunState.REQUESTED);
        endedAt = micros(now);
        moveTo(RunState.DENIED, now);
    }

    /**
     * The replica executing the run stopped renewing its lease, which ran out at
     * {@code leaseRanOut}: what the process did is unknown, and the run is never executed again.
     */
    public void interrupt(Instant leaseRanOut, Instant now) {
        require(RunState.RUNNING);
        termination = Termination.LOST;
        exitCode = null;
        failure =
                "the replica " + claimedBy + " executing the run stopped renewing its lease; what the process did and "
                        + "printed was not recorded";
        endedAt = micros(leaseRanOut);
        moveTo(RunState.INTERRUPTED, now);
    }

    /**
     * The process could not be started. Like {@link #finish}, also recorded late by the replica
     * that executed the run after another replica had already marked it INTERRUPTED.
     */
    public void failToStart(String reason, Instant now) {
        require(RunState.RUNNING, RunState.INTERRUPTED);
        termination = Termination.SPAWN_FAILED;
        failure = reason;
        endedAt = micros(now);
        moveTo(RunState.FAILED, now);
    }

    /**
     * The process ended; the state follows from how.
     *
     * @param exitCode    the exit code if the supervisor observed one, else null
     * A result that arrives after the run was marked INTERRUPTED (its replica lost the database
     * for longer than the lease) is still what was observed, and replaces the unknown outcome.
     *
     * @param termination why the process stopped (not {@link Termination#SPAWN_FAILED} or {@link Termination#LOST})
     * @param sandbox     what the process was isolated by; null only for a run cancelled before its process started
     */
    public void finish(
            @Nullable Integer exitCode,
            Termination termination,
            @Nullable SandboxKind sandbox,
            Instant startedAt,
            Instant endedAt,
            Instant now) {
        require(RunState.RUNNING, RunState.INTERRUPTED);
        if (kind != ActionKind.PROCESS) {
            throw new IllegalStateException("run " + id + " is a call to an upstream; use finishCall");
        }
        if (termination == Termination.SPAWN_FAILED || termination == Termination.LOST) {
            throw new IllegalArgumentException("use failToStart for a spawn failure and interrupt for a lost run");
        }
        this.failure = null;
        this.exitCode = exitCode;
        this.termination = termination;
        if (sandbox == null && termination != Termination.CANCELLED) {
            // Only a run cancelled before its process started has no sandbox to name.
            throw new IllegalArgumentException("a process that ran names its sandbox");
        }
        this.sandbox = sandbox;
        this.startedAt = micros(startedAt);
        this.endedAt = micros(endedAt);
        moveTo(
                switch (termination) {
                    case TIMEOUT -> RunState.TIMED_OUT;
                    case CANCELLED -> RunState.CANCELLED;
                    default -> RunState.COMPLETED;
                },
                now);
    }

    /**
     * The call to an upstream ended; the state follows from how ({@link Termination#callState()}).
     * Like {@link #finish}, also recorded late after the run was marked INTERRUPTED.
     *
     * @param termination how it ended
     * @param callJson    what Airlock observed of the call, as JSON
     */
    public void finishCall(Termination termination, String callJson, Instant startedAt, Instant endedAt, Instant now) {
        require(RunState.RUNNING, RunState.INTERRUPTED);
        if (kind == ActionKind.PROCESS) {
            throw new IllegalStateException("run " + id + " is a process; use finish");
        }
        RunState next = termination.callState();
        this.failure = null;
        this.exitCode = null;
        this.termination = termination;
        this.call = callJson;
        this.startedAt = micros(startedAt);
        this.endedAt = micros(endedAt);
        moveTo(next, now);
    }

    /** Someone cancelled the run before it started. */
    public void cancelBeforeStart(Instant now) {
        require(RunState.REQUESTED, RunState.PENDING_APPROVAL, RunState.APPROVED);
        endedAt = micros(now);
        moveTo(RunState.CANCELLED, now);
    }

    /** Asks the replica running this run to stop it. */
    public void requestCancel(Instant now) {
        require(RunState.RUNNING);
        cancelRequested = true;
        updatedAt = micros(now);
    }

    private void require(RunState... allowed) {
        for (RunState s : allowed) {
            if (state == s) {
                return;
            }
        }
        throw new IllegalRunTransition(id, state, allowed);
    }

    private void moveTo(RunState next, Instant now) {
        state = next;
        updatedAt = micros(now);
    }

    public UUID id() {
        return id;
    }

    /** Until when the executing replica's lease holds, or null for a run that is not executing. */
    public @Nullable Instant leaseUntil() {
        return leaseUntil;
    }

    @Override
    public UUID getId() {
        return id;
    }

    public String tenant() {
        return tenant;
    }

    public String agent() {
        return agent;
    }

    public String tool() {
        return tool;
    }

    public long toolSnapshotId() {
        return toolSnapshotId;
    }

    public String argumentsJson() {
        return arguments;
    }

    public String argvJson() {
        return argv;
    }

    /** What the run's action is. */
    public ActionKind kind() {
        return kind;
    }

    /** For a call: the request as it is sent, credentials excepted, as JSON; null for a process. */
    public @Nullable String requestJson() {
        return request;
    }

    /** For a call that ended: what Airlock observed of it, as JSON; else null. */
    public @Nullable String callJson() {
        return call;
    }

    public String requestSha256() {
        return requestSha256;
    }

    public @Nullable String idempotencyKey() {
        return idempotencyKey;
    }

    public RunState state() {
        return state;
    }

    public boolean approvalRequired() {
        return approvalRequired;
    }

    public boolean cancelRequested() {
        return cancelRequested;
    }

    public @Nullable String claimedBy() {
        return claimedBy;
    }

    public @Nullable Integer exitCode() {
        return exitCode;
    }

    public @Nullable Termination termination() {
        return termination;
    }

    public @Nullable String failure() {
        return failure;
    }

    /** What the process was isolated by; null if no process was started. */
    public @Nullable SandboxKind sandbox() {
        return sandbox;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant updatedAt() {
        return updatedAt;
    }

    public @Nullable Instant startedAt() {
        return startedAt;
    }

    public @Nullable Instant endedAt() {
        return endedAt;
    }

    /**
     * The instant as PostgreSQL stores it (microseconds, cut rather than rounded here), so that a
     * record read back equals the record written, and an envelope built from either is the same.
     */
    private static Instant micros(Instant instant) {
        return instant.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }
}
