package dev.airlock.persistence.run;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The run's writes on its hot path as plain SQL, one statement each, instead of through the
 * entity model: a new run's row ({@link #insert}), and its end ({@link #end}: the run's end
 * columns, its streams' facts and its transcripts in one data-modifying statement, the inserts
 * drawn from the update's row). The end is conditional on the run still executing (RUNNING, or
 * INTERRUPTED when its replica lost its lease): a run that has already ended is refused with
 * {@link IllegalRunTransition} and nothing is written. The rules of the run's life cycle stay
 * {@link RunRecord}'s: these statements write what its transitions decided.
 */
@Component
public class RunWrites {

    private final JdbcClient jdbc;

    RunWrites(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Whether the run is recorded in any tenant, whatever tenants this session may see (an owner
     * function): a run hidden by the session's scope is not a run that is gone.
     */
    public boolean isRecorded(java.util.UUID runId) {
        return jdbc.sql("SELECT airlock.run_recorded(:id)")
                .param("id", runId)
                .query(Boolean.class)
                .single();
    }

    /**
     * How many runs of {@code agent} wait for people now, counted under a lock that every request of
     * that agent for people's approval takes until its transaction ends (in the caller's transaction):
     * requests sent at the same moment are counted one after another, so none passes a limit together.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public long pendingApprovalsLocked(String tenant, String agent) {
        // The two-key form: a space of its own, apart from the single-key locks of the audit chain and retention.
        jdbc.sql("SELECT pg_advisory_xact_lock(:space, hashtext(:key))")
                .param("space", PENDING_LOCK_SPACE)
                .param("key", tenant.length() + ":" + tenant + ":" + agent)
                .query()
                .singleRow();
        return jdbc.sql("SELECT count(*) FROM airlock.runs WHERE tenant = :tenant AND agent = :agent"
                        + " AND state = 'PENDING_APPROVAL'")
                .param("tenant", tenant)
                .param("agent", agent)
                .query(Long.class)
                .single();
    }

    /**
     * The first key of the advisory locks of agents' requests for approval (the second is a hash of the
     * tenant and agent, the tenant's length keeping names apart); no other lock of Airlock's uses it.
     */
    static final int PENDING_LOCK_SPACE = 0x41_50_41_31; // "APA1"

    /**
     * Inserts a new run (one {@link RunRecord#request requested} and decided in this process, not yet
     * stored), in the caller's transaction; it counts as stored from then on.
     *
     * @throws org.springframework.dao.DataIntegrityViolationException when its idempotency key was used already
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void insert(RunRecord run) {
        if (!run.isNew()) {
            throw new IllegalStateException("run " + run.id() + " is stored already");
        }
        Map<String, @Nullable Object> params = new java.util.HashMap<>();
        params.put("id", run.id());
        params.put("tenant", run.tenant());
        params.put("agent", run.agent());
        params.put("tool", run.tool());
        params.put("snapshot", run.toolSnapshotId());
        params.put("arguments", run.argumentsJson());
        params.put("argv", run.argvJson());
        params.put("kind", run.kind().name());
        params.put("request", run.requestJson());
        params.put("policyRule", run.policyRule());
        params.put("agentReason", run.agentReason());
        params.put("requestSha256", run.requestSha256());
        params.put("idempotencyKey", run.idempotencyKey());
        params.put("state", run.state().name());
        params.put("approvalRequired", run.approvalRequired());
        params.put("claimedBy", run.claimedBy());
        // A lease is timed by the database's clock (as RunClaims times claims and renewals): its length
        // as the run was started, from the database's present time.
        Instant leaseUntil = run.leaseUntil();
        Instant startedAt = run.startedAt();
        params.put(
                "leaseMicros",
                leaseUntil == null || startedAt == null
                        ? null
                        : java.util.concurrent.TimeUnit.NANOSECONDS.toMicros(
                                java.time.Duration.between(startedAt, leaseUntil)
                                        .toNanos()));
        params.put("sandbox", run.sandbox() == null ? null : run.sandbox().name());
        params.put("createdAt", timestamp(run.createdAt()));
        params.put("updatedAt", timestamp(run.updatedAt()));
        params.put("startedAt", timestamp(run.startedAt()));
        params.put("endedAt", timestamp(run.endedAt()));
        params.put("cancelRequested", run.cancelRequested());
        params.put("exitCode", run.exitCode());
        params.put(
                "termination",
                run.termination() == null ? null : run.termination().name());
        params.put("failure", run.failure());
        params.put("call", run.callJson());
        jdbc.sql("""
                INSERT INTO airlock.runs (id, tenant, agent, tool, tool_snapshot_id, arguments, argv, kind, request,
                                          policy_rule, agent_reason, request_sha256, idempotency_key, state,
                                          approval_required, cancel_requested, claimed_by, lease_until, sandbox,
                                          exit_code, termination, failure, call,
                                          created_at, updated_at, started_at, ended_at, version)
                VALUES (:id, :tenant, :agent, :tool, :snapshot, :arguments, :argv, :kind, :request,
                        :policyRule, :agentReason, :requestSha256, :idempotencyKey, :state,
                        :approvalRequired, :cancelRequested, :claimedBy,
                        now() + CAST(:leaseMicros AS bigint) * interval '1 microsecond', :sandbox,
                        :exitCode, :termination, :failure, :call,
                        :createdAt, :updatedAt, :startedAt, :endedAt, 0)
                """).params(params).update();
        run.stored();
    }

    /**
     * Writes {@code ended} (a {@link RunRecord#copy copy} the run's end was applied to) with its
     * streams' facts and transcripts, in the caller's transaction.
     *
     * @throws IllegalRunTransition when the run is not executing any more (its end was written already)
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void end(RunRecord ended, List<StreamRecord> streams, List<Transcript> transcripts) {
        if (!ended.state().isTerminal()) {
            throw new IllegalArgumentException("run " + ended.id() + " has not ended: " + ended.state());
        }
        StringBuilder sql = new StringBuilder("""
                WITH ended AS (
                    UPDATE airlock.runs
                       SET state = :state, exit_code = :exitCode, termination = :termination, failure = :failure,
                           sandbox = :sandbox, call = :call, started_at = :startedAt, ended_at = :endedAt,
                           updated_at = :updatedAt, version = version + 1
                     WHERE id = :id AND state IN ('RUNNING', 'INTERRUPTED')
                    RETURNING id)
                """);
        Map<String, @Nullable Object> params = new java.util.HashMap<>();
        params.put("id", ended.id());
        params.put("state", ended.state().name());
        params.put("exitCode", ended.exitCode());
        params.put(
                "termination",
                ended.termination() == null ? null : ended.termination().name());
        params.put("failure", ended.failure());
        params.put("sandbox", ended.sandbox() == null ? null : ended.sandbox().name());
        params.put("call", ended.callJson());
        params.put("startedAt", timestamp(ended.startedAt()));
        params.put("endedAt", timestamp(ended.endedAt()));
        params.put("updatedAt", timestamp(ended.updatedAt()));
        if (!streams.isEmpty()) {
            List<String> rows = new ArrayList<>();
            for (int i = 0; i < streams.size(); i++) {
                StreamRecord stream = streams.get(i);
                requireRun(ended, stream.key());
                rows.add("(:stream" + i + "::text, :observed" + i + "::bigint, :retained" + i + "::bigint, :truncated"
                        + i
                        + "::boolean, :eof" + i + "::boolean, :sha" + i + "::text, :removed" + i + "::text, :redactions"
                        + i
                        + "::bigint)");
                params.put("stream" + i, stream.key().stream().key());
                params.put("observed" + i, stream.observedBytes());
                params.put("retained" + i, stream.retainedBytes());
                params.put("truncated" + i, stream.truncated());
                params.put("eof" + i, stream.eof());
                params.put("sha" + i, stream.sha256());
                params.put("removed" + i, stream.removedJson());
                params.put("redactions" + i, stream.redactions());
            }
            sql.append(", streams AS (INSERT INTO airlock.run_streams (run_id, stream, observed_bytes, retained_bytes,"
                            + " truncated, eof, sha256, removed, redactions)"
                            + " SELECT ended.id, s.* FROM ended, (VALUES ")
                    .append(String.join(", ", rows))
                    .append(") AS s)\n");
        }
        if (!transcripts.isEmpty()) {
            List<String> rows = new ArrayList<>();
            for (int i = 0; i < transcripts.size(); i++) {
                Transcript transcript = transcripts.get(i);
                requireRun(ended, transcript.key());
                rows.add("(:textStream" + i + "::text, :text" + i + "::text, :textAt" + i + "::timestamptz)");
                params.put("textStream" + i, transcript.key().stream().key());
                params.put("text" + i, transcript.text());
                params.put("textAt" + i, timestamp(transcript.createdAt()));
            }
            sql.append(", texts AS (INSERT INTO airlock.transcripts (run_id, stream, text, created_at)"
                            + " SELECT ended.id, t.* FROM ended, (VALUES ")
                    .append(String.join(", ", rows))
                    .append(") AS t)\n");
        }
        sql.append("SELECT count(*) FROM ended");
        long written = jdbc.sql(sql.toString()).params(params).query(Long.class).single();
        if (written != 1) {
            RunState now = jdbc.sql("SELECT state FROM airlock.runs WHERE id = :id")
                    .param("id", ended.id())
                    .query((rs, n) -> RunState.valueOf(rs.getString(1)))
                    .optional()
                    .orElseThrow(() -> new IllegalStateException("run " + ended.id() + " vanished"));
            throw new IllegalRunTransition(ended.id(), now, RunState.RUNNING, RunState.INTERRUPTED);
        }
    }

    private static void requireRun(RunRecord run, StreamKey key) {
        if (!key.runId().equals(run.id())) {
            throw new IllegalArgumentException("a stream of run " + key.runId() + " is not run " + run.id() + "'s");
        }
    }

    private static @Nullable Timestamp timestamp(@Nullable Instant instant) {
        return instant == null ? null : Timestamp.from(instant.truncatedTo(ChronoUnit.MICROS));
    }
}
