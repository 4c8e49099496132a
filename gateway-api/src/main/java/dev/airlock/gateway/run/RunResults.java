package dev.airlock.gateway.run;

import dev.airlock.gateway.capture.CallFacts;
import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.capture.StreamResult;
import dev.airlock.persistence.approval.ApprovalRequest;
import dev.airlock.persistence.artifact.RawArtifactDigest;
import dev.airlock.persistence.artifact.RawArtifactStore;
import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.persistence.envelope.RunViews;
import dev.airlock.persistence.event.ApprovedRunFinished;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import dev.airlock.persistence.run.RunWrites;
import dev.airlock.persistence.run.StreamKey;
import dev.airlock.persistence.run.StreamName;
import dev.airlock.persistence.run.StreamRecord;
import dev.airlock.persistence.run.Transcript;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes what the supervisor observed of a finished run, in one transaction: the run's end
 * state, each stream's facts, the transcripts, and the raw artifact in the restricted schema;
 * the end of a run humans approved is published as {@link ApprovedRunFinished}.
 */
@Component
class RunResults {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RunResults.class);

    private final RunRepository runs;
    private final ApprovalRequests approvals;
    private final RunWrites writes;
    private final RawArtifactStore artifacts;
    private final AuditLog audit;
    private final ApplicationEventPublisher events;
    private final JsonMapper json;
    private final Clock clock;

    RunResults(
            RunRepository runs,
            RunWrites writes,
            RawArtifactStore artifacts,
            AuditLog audit,
            ApplicationEventPublisher events,
            JsonMapper json,
            Clock clock,
            ApprovalRequests approvals) {
        this.approvals = approvals;
        this.runs = runs;
        this.writes = writes;
        this.artifacts = artifacts;
        this.audit = audit;
        this.events = events;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Writes the result; returns the run's envelope as written, for the requests waiting on this
     * replica (null for a run whose envelope shows approvals, which are read with it).
     */
    @Transactional
    public @Nullable Envelope record(UUID runId, @Nullable RunRecord held, CaptureResult result) {
        // The executor's own copy of the run as it started it, or (for a result from the spool) a copy of it as stored:
        // the end is applied to the copy and written by one statement, never through the entity model.
        RunRecord run = held != null
                ? held.copy()
                : runs.findById(runId)
                        .map(RunRecord::copy)
                        .orElseThrow(() -> writes.isRecorded(runId)
                                ? new IllegalStateException(
                                        "run " + runId + " is of a tenant outside this replica's configuration")
                                : new RunGone(runId));
        var now = clock.instant();
        if (result.termination() == dev.airlock.persistence.run.Termination.SPAWN_FAILED) {
            String failure = Objects.requireNonNull(result.failure(), "a spawn failure says why");
            run.failToStart(failure, now);
            writes.end(run, List.of(), List.of());
            announceIfApproved(run);
            Envelope ended = envelopeOf(run, List.of(), Map.of(), null);
            appendLast(
                    run,
                    List.of(new AuditLog.NewEvent(
                            AuditEventType.RUN_FAILED, runId, "airlock", Map.of("failure", failure), now)));
            return ended;
        }
        String artifact =
                RawArtifactDigest.of(result.stdout().raw(), result.stderr().raw());
        dev.airlock.gateway.capture.CallObservation call = result.call();
        List<AuditLog.NewEvent> auditEvents = new java.util.ArrayList<>(2);
        if (result.sandbox() != null) {
            auditEvents.add(new AuditLog.NewEvent(
                    AuditEventType.RUN_STARTED, runId, "airlock", started(run, result), result.startedAt()));
        }
        Map<String, String> finished = new java.util.TreeMap<>(Map.of(
                "termination", result.termination().name(),
                "stdoutSha256", result.stdout().sha256(),
                "stderrSha256", result.stderr().sha256(),
                "rawArtifact", RawArtifactDigest.REFERENCE_PREFIX + artifact,
                // The sanitized transcripts as stored, so that evidence bundles can show their text is Airlock's.
                "stdoutTextSha256",
                        dev.airlock.kernel.digest.Sha256.hex(result.stdout().text()),
                "stderrTextSha256",
                        dev.airlock.kernel.digest.Sha256.hex(result.stderr().text())));
        if (result.exitCode() != null) {
            finished.put("exitCode", result.exitCode().toString());
        }
        if (call != null && result.action() != null) {
            finished.put("action", result.action());
        }
        if (call instanceof CallFacts http) {
            finished.put("upstream", http.upstream());
            finished.put("method", http.method());
            finished.put("url", http.url());
            finished.put("attempts", Integer.toString(http.attempts()));
            if (http.status() != null) {
                finished.put("status", http.status().toString());
            }
            if (http.reason() != null) {
                finished.put("reason", http.reason());
            }
        } else if (call instanceof dev.airlock.gateway.capture.McpFacts mcp) {
            finished.put("mcpServer", mcp.server());
            finished.put("mcpTool", mcp.tool());
            if (mcp.isError() != null) {
                finished.put("isError", mcp.isError().toString());
            }
            if (mcp.errorCode() != null) {
                finished.put("errorCode", mcp.errorCode().toString());
            }
            if (mcp.reason() != null) {
                finished.put("reason", mcp.reason());
            }
        }
        if (call != null) {
            run.finishCall(
                    result.termination(), json.writeValueAsString(call), result.startedAt(), result.endedAt(), now);
        } else {
            run.finish(
                    result.exitCode(),
                    result.termination(),
                    result.sandbox(),
                    result.startedAt(),
                    result.endedAt(),
                    now);
        }
        // The state the end moved the run to, so that an evidence bundle's envelope can be held to it.
        finished.put("state", run.state().name());
        auditEvents.add(
                new AuditLog.NewEvent(AuditEventType.RUN_FINISHED, runId, "airlock", finished, result.endedAt()));
        List<StreamRecord> facts = List.of(
                facts(runId, StreamName.STDOUT, result.stdout()), facts(runId, StreamName.STDERR, result.stderr()));
        Map<StreamName, String> texts = Map.of(
                StreamName.STDOUT,
                result.stdout().text(),
                StreamName.STDERR,
                result.stderr().text());
        writes.end(
                run,
                facts,
                facts.stream()
                        .map(f -> new Transcript(f.key(), Objects.requireNonNull(texts.get(f.key().stream())), now))
                        .toList());
        artifacts.store(
                runId,
                run.tenant(),
                artifact,
                result.stdout().raw(),
                result.stderr().raw(),
                result.stdout().rawRedactions() + result.stderr().rawRedactions(),
                now);
        announceIfApproved(run);
        Envelope ended = envelopeOf(run, facts, texts, artifact);
        appendLast(run, auditEvents);
        return ended;
    }

    /**
     * The envelope of the run as just written, for the requests waiting for it; null (they read it
     * back) if it cannot be built: a result is never lost for the sake of its waiters' shortcut.
     */
    private @Nullable Envelope envelopeOf(
            RunRecord run, List<StreamRecord> facts, Map<StreamName, String> texts, @Nullable String artifact) {
        try {
            return RunViews.ended(run, facts, texts, artifact);
        } catch (RuntimeException e) {
            log.warn("Run {}: its envelope is read back by its waiters ({})", run.id(), e.toString());
            return null;
        }
    }

    /**
     * Appends the audit events as the transaction's last statements, after everything else is
     * written: the tenant's audit lock, which serializes its appends until commit, is held for the
     * append and the commit only.
     */
    private void appendLast(RunRecord run, List<AuditLog.NewEvent> auditEvents) {
        audit.appendAll(run.tenant(), auditEvents);
    }

    private void announceIfApproved(RunRecord run) {
        if (run.approvalRequired()) {
            events.publishEvent(new ApprovedRunFinished(
                    run.id(),
                    run.tenant(),
                    run.tool(),
                    run.state(),
                    run.exitCode(),
                    run.termination(),
                    approvals
                            .of(run.id(), run.tenant())
                            .map(ApprovalRequest::digest)
                            .orElse(null)));
        }
    }

    private StreamRecord facts(UUID runId, StreamName name, StreamResult stream) {
        return new StreamRecord(
                new StreamKey(runId, name),
                stream.observedBytes(),
                stream.retainedBytes(),
                stream.truncated(),
                stream.eof(),
                stream.sha256(),
                json.writeValueAsString(Removals.counts(stream.removed())),
                stream.redactions());
    }

    /** The details of a run.started event: the tool, the sandbox and the approved action's digest, if any. */
    private static Map<String, String> started(RunRecord run, CaptureResult result) {
        Map<String, String> details = new java.util.TreeMap<>(Map.of(
                "tool",
                run.tool(),
                "sandbox",
                java.util.Objects.requireNonNull(result.sandbox()).key()));
        if (result.action() != null) {
            details.put("action", result.action());
        }
        return details;
    }

    /** A result for a run that is no longer recorded (retention removed it): there is nothing to write it to. */
    static final class RunGone extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        RunGone(UUID runId) {
            super("run " + runId + " is no longer recorded");
        }
    }
}
