package dev.airlock.gateway.mcp;

import dev.airlock.gateway.problem.Conflict;
import dev.airlock.gateway.problem.Refused;
import dev.airlock.gateway.problem.TooManyRequests;
import dev.airlock.gateway.run.OutputExcerpt;
import dev.airlock.gateway.run.OutputExcerpts;
import dev.airlock.gateway.run.RunService;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.kernel.problem.ApiProblem;
import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.kernel.problem.RunNotFound;
import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.persistence.envelope.RunViews;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunState;
import dev.airlock.persistence.run.StreamName;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers {@code tools/call}. A tenant tool runs through {@link RunService} exactly as
 * {@code POST /api/v1/runs} runs it (validation, policy, limits, audit), and the answer is built
 * from the same envelope, serialized by the same JSON mapper, as the REST API returns. The
 * built-in tools read, excerpt and cancel runs through the same services as the REST endpoints.
 */
final class ToolCalls {

    private static final Logger log = LoggerFactory.getLogger(ToolCalls.class);
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};
    /** How often a waiting call looks at its run to report progress. */
    static final Duration PROGRESS_POLL = Duration.ofSeconds(1);
    /** The longest a call reporting progress stays silent, so that clients know it is alive. */
    static final Duration PROGRESS_HEARTBEAT = Duration.ofSeconds(15);

    /** Where a call reports progress, when its client asked for it. */
    interface Progress {

        /** Sends one progress message; false when the client is gone. */
        boolean report(String message);
    }

    private final RunService runs;
    private final RunViews views;
    private final OutputExcerpts excerpts;
    private final BuiltInTools builtIns;
    private final CallResults results;
    private final InFlightCalls inFlight;
    private final JsonMapper json;
    private final dev.airlock.gateway.mcpupstream.UpstreamProgress upstreamProgress;
    private final Duration callWait;

    ToolCalls(
            RunService runs,
            RunViews views,
            OutputExcerpts excerpts,
            BuiltInTools builtIns,
            CallResults results,
            InFlightCalls inFlight,
            dev.airlock.gateway.mcpupstream.UpstreamProgress upstreamProgress,
            JsonMapper json,
            Duration callWait) {
        this.upstreamProgress = upstreamProgress;
        this.runs = runs;
        this.views = views;
        this.excerpts = excerpts;
        this.builtIns = builtIns;
        this.results = results;
        this.inFlight = inFlight;
        this.json = json;
        this.callWait = callWait;
    }

    /**
     * Calls a tool the agent's tenant lists (the caller has checked that it does).
     *
     * @param key      the call's request id, for cancellation
     * @param progress where to report progress, or null
     */
    McpSchema.CallToolResult call(
            AgentIdentity agent,
            String tool,
            Map<String, Object> arguments,
            InFlightCalls.Key key,
            @Nullable Progress progress,
            @Nullable String reason) {
        if (BuiltInTools.isBuiltIn(tool)) {
            return builtIn(agent, tool, arguments);
        }
        InFlightCalls.Call call = inFlight.begin(key);
        try {
            RunService.Submission submission;
            try {
                // Without progress to report, the call waits for the run's end as the REST API does: watched
                // from before it starts, answered from what the executor wrote.
                submission =
                        runs.submit(agent, tool, arguments, null, reason, progress == null ? callWait : Duration.ZERO);
            } catch (Refused refused) {
                return answer(runs.find(agent, refused.runId()));
            } catch (TooManyRequests busy) {
                return refused(busy);
            } catch (ApiProblem problem) {
                return results.refused(detail(problem), null);
            }
            UUID runId = submission.run().id();
            if (call.runStarted(runId)) {
                cancelQuietly(agent, runId);
            }
            if (progress == null) {
                return answer(agent, runs.envelopeAfter(agent, submission, callWait));
            }
            return answer(waitFor(agent, runId, callWait, progress));
        } finally {
            inFlight.end(key, call);
        }
    }

    /** Cancels the run of the one call in flight under {@code key}, if there is exactly one. */
    void cancelled(InFlightCalls.Key key) {
        var call = inFlight.sole(key);
        if (call.isEmpty()) {
            int count = inFlight.count(key);
            if (count > 1) {
                log.warn(
                        "Ignoring notifications/cancelled from {}/{} for request {}: {} calls in flight share that id",
                        key.agent().tenant(),
                        key.agent().agent(),
                        key.requestId(),
                        count);
            }
            return;
        }
        call.get().requestCancel().ifPresent(runId -> {
            log.info(
                    "Cancelling run {} for {}/{}: the client cancelled request {}",
                    runId,
                    key.agent().tenant(),
                    key.agent().agent(),
                    key.requestId());
            cancelQuietly(key.agent(), runId);
        });
    }

    private void cancelQuietly(AgentIdentity agent, UUID runId) {
        try {
            runs.cancel(agent, runId);
        } catch (Conflict ended) {
            log.debug("Run {} had ended before the client's cancellation", runId);
        }
    }

    private RunRecord waitFor(AgentIdentity agent, UUID runId, Duration wait, @Nullable Progress progress) {
        if (progress == null) {
            return runs.await(agent, runId, wait);
        }
        var place = runs.placeToWait(agent);
        if (place.isEmpty()) {
            return runs.find(agent, runId); // as if the wait had passed; airlock_status asks again
        }
        try (var held = place.get()) {
            return waitWithProgress(agent, runId, wait, progress);
        }
    }

    private RunRecord waitWithProgress(AgentIdentity agent, UUID runId, Duration wait, Progress progress) {
        long deadline = System.nanoTime() + wait.toNanos();
        String last = null;
        long lastSent = 0;
        while (true) {
            long left = deadline - System.nanoTime();
            RunRecord run = runs.awaitHolding(
                    agent, runId, Duration.ofNanos(Math.max(0, Math.min(left, PROGRESS_POLL.toNanos()))));
            if (run.state().isTerminal() || deadline - System.nanoTime() <= 0) {
                return run;
            }
            String message = progressMessage(run);
            if (!message.equals(last) || System.nanoTime() - lastSent >= PROGRESS_HEARTBEAT.toNanos()) {
                if (!progress.report(message)) {
                    // The client is gone; the run goes on and airlock_status finds it.
                    return run;
                }
                last = message;
                lastSent = System.nanoTime();
            }
        }
    }

    private String progressMessage(RunRecord run) {
        return switch (run.state()) {
            case PENDING_APPROVAL -> {
                int missing = approvalsMissing(run, views.envelope(run));
                yield missing > 0 ? "waiting for " + CallResults.approvals(missing) : "waiting for approval";
            }
            case REQUESTED, APPROVED -> "starting";
            default -> upstreamProgress.of(run.id()).orElse("running");
        };
    }

    /** Approvals the run still needs: its approval request's count, less the approvals in its envelope. */
    private int approvalsMissing(RunRecord run, Envelope envelope) {
        if (!RunState.PENDING_APPROVAL.name().equals(envelope.state())) {
            return 0;
        }
        int needed = runs.approversRequired(run);
        long given = envelope.approval().decisions().stream()
                .filter(d -> "APPROVE".equals(d.decision()))
                .count();
        return (int) Math.max(0, needed - given);
    }

    /** The answer for a run's envelope; one waiting for approval is read, to say how many approvals it lacks. */
    private McpSchema.CallToolResult answer(AgentIdentity agent, Envelope envelope) {
        if (RunState.PENDING_APPROVAL.name().equals(envelope.state())) {
            return answer(runs.find(agent, UUID.fromString(envelope.runId())));
        }
        return results.run(envelope, structured(envelope), 0);
    }

    private McpSchema.CallToolResult answer(RunRecord run) {
        Envelope envelope = views.envelope(run);
        return results.run(envelope, structured(envelope), approvalsMissing(run, envelope));
    }

    private Map<String, Object> structured(Object view) {
        return json.convertValue(view, MAP);
    }

    /** A limit's refusal as a call's result, saying when to retry. */
    private McpSchema.CallToolResult refused(TooManyRequests busy) {
        return results.refused(
                busy.getMessage() + " Retry after " + busy.headers().get("Retry-After") + " s.", null);
    }

    private McpSchema.CallToolResult builtIn(AgentIdentity agent, String tool, Map<String, Object> arguments) {
        List<String> errors = new ArrayList<>();
        BuiltInTools.Arguments checked = builtIns.check(tool, arguments, errors);
        if (!errors.isEmpty()) {
            return results.refused(detail(InvalidRequest.arguments(tool, errors)), null);
        }
        // Every built-in tool requires a run id, and airlock_output a stream: with no errors, they are there.
        UUID runId = Objects.requireNonNull(checked.runId(), "checked arguments name a run");
        try {
            runs.admitRead(agent);
        } catch (TooManyRequests busy) {
            return refused(busy);
        }
        try {
            return switch (tool) {
                case BuiltInTools.STATUS -> answer(runs.await(agent, runId, checked.waitFor()));
                case BuiltInTools.OUTPUT -> {
                    RunRecord run = runs.find(agent, runId);
                    StreamName stream = Objects.requireNonNull(checked.stream(), "checked arguments name a stream");
                    OutputExcerpt excerpt = excerpts.excerpt(run, stream, checked.from(), checked.to(), checked.grep());
                    yield results.excerpt(excerpt, run.tool(), structured(excerpt));
                }
                default -> cancel(agent, runId);
            };
        } catch (RunNotFound | InvalidRequest problem) {
            return results.refused(detail(problem), null);
        }
    }

    /** The detail of one of Airlock's problems, which each of them states. */
    private static String detail(ApiProblem problem) {
        return Objects.requireNonNull(problem.getMessage(), "an Airlock problem states its detail");
    }

    private McpSchema.CallToolResult cancel(AgentIdentity agent, UUID runId) {
        RunRecord run;
        try {
            run = runs.cancel(agent, runId);
        } catch (Conflict ended) {
            RunRecord current = runs.find(agent, runId);
            return results.refused(ended.getMessage() + " Nothing was cancelled.", structured(views.envelope(current)));
        }
        Envelope envelope = views.envelope(run);
        String name = CallResults.VOICE + "run " + runId + " (" + run.tool() + ")";
        boolean failed = run.state().isTerminal() && run.state() != RunState.CANCELLED;
        String statement = switch (run.state()) {
            case CANCELLED -> name + " is cancelled.";
            case RUNNING, APPROVED, REQUESTED, PENDING_APPROVAL ->
                name + " is being cancelled (state " + run.state() + "); airlock_status returns the outcome.";
            default -> name + " ended as " + run.state() + " before the cancellation took effect.";
        };
        return McpSchema.CallToolResult.builder()
                .addTextContent(statement)
                .isError(failed)
                .structuredContent(structured(envelope))
                .build();
    }
}
