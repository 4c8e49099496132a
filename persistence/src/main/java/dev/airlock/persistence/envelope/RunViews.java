package dev.airlock.persistence.envelope;

import dev.airlock.persistence.approval.ApprovalDecisionRepository;
import dev.airlock.persistence.artifact.RawArtifactDigest;
import dev.airlock.persistence.artifact.RawArtifactStore;
import dev.airlock.persistence.run.ActionKind;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunState;
import dev.airlock.persistence.run.StreamName;
import dev.airlock.persistence.run.StreamRecord;
import dev.airlock.persistence.run.StreamRecordRepository;
import dev.airlock.persistence.run.Transcript;
import dev.airlock.persistence.run.TranscriptRepository;
import dev.airlock.sanitizer.Fence;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Builds the agent-facing views of a run from the records Airlock wrote. */
@Component
public class RunViews {

    /** Reads the removal counts stored as a JSON object; no configuration is involved. */
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StreamRecordRepository streams;
    private final TranscriptRepository transcripts;
    private final RawArtifactStore artifacts;
    private final ApprovalDecisionRepository decisions;

    RunViews(
            StreamRecordRepository streams,
            TranscriptRepository transcripts,
            RawArtifactStore artifacts,
            ApprovalDecisionRepository decisions) {
        this.streams = streams;
        this.transcripts = transcripts;
        this.artifacts = artifacts;
        this.decisions = decisions;
    }

    /** The envelope of a run already resolved within the caller's tenant. */
    @Transactional(readOnly = true)
    public Envelope envelope(RunRecord run) {
        Map<StreamName, Envelope.StreamView> views = streams(run, true);
        String artifact = artifacts
                .digest(run.id())
                .map(d -> RawArtifactDigest.REFERENCE_PREFIX + d)
                .orElse(null);
        return envelope(run, approval(run), views, artifact);
    }

    /**
     * The envelope of a run that has just ended, built from the records its result was written as
     * (the same fields {@link #envelope(RunRecord)} reads back, without reading them): for the
     * replica that recorded the result, to answer the requests waiting for it. Only for a run
     * without approval (whose envelope has no decisions to read); null for any other.
     *
     * @param run            the run as written, ended
     * @param streams        its streams' facts as written
     * @param texts          its transcripts as written, by stream
     * @param artifactSha256 the raw artifact's digest as written, or null when none was
     */
    public static @Nullable Envelope ended(
            RunRecord run, List<StreamRecord> streams, Map<StreamName, String> texts, @Nullable String artifactSha256) {
        if (run.approvalRequired() || !run.state().isTerminal()) {
            return null;
        }
        return envelope(
                run,
                new Envelope.Approval(false, status(run), List.of(), run.policyRule()),
                views(run, streams, texts, true),
                artifactSha256 == null ? null : RawArtifactDigest.REFERENCE_PREFIX + artifactSha256);
    }

    private static Envelope envelope(
            RunRecord run,
            Envelope.Approval approval,
            Map<StreamName, Envelope.StreamView> views,
            @Nullable String artifact) {
        return new Envelope(
                run.id().toString(),
                run.tenant(),
                run.agent(),
                run.tool(),
                run.state().name(),
                run.createdAt(),
                approval,
                run.kind() == ActionKind.PROCESS ? process(run) : null,
                run.kind() == ActionKind.HTTP ? http(run) : null,
                run.kind() == ActionKind.MCP ? mcp(run) : null,
                views.get(StreamName.STDOUT),
                views.get(StreamName.STDERR),
                artifact);
    }

    /** What Airlock observed of the run's process. */
    public static Envelope.ProcessFacts process(RunRecord run) {
        return new Envelope.ProcessFacts(
                run.exitCode(),
                run.termination() == null ? null : run.termination().name(),
                run.startedAt(),
                run.endedAt(),
                run.failure(),
                run.sandbox() == null ? null : run.sandbox().key());
    }

    /** What Airlock sent and observed of an HTTP tool's call: the recorded request and, once ended, the facts. */
    public static Envelope.HttpFacts http(RunRecord run) {
        JsonNode request =
                JSON.readTree(java.util.Objects.requireNonNull(run.requestJson(), "the request of an HTTP run"));
        JsonNode call = run.callJson() == null ? null : JSON.readTree(run.callJson());
        Map<String, String> headers = new LinkedHashMap<>();
        if (call != null) {
            call.path("headers")
                    .properties()
                    .forEach(e -> headers.put(e.getKey(), e.getValue().asString()));
        }
        Instant started = run.startedAt();
        Instant ended = call == null ? null : run.endedAt();
        return new Envelope.HttpFacts(
                request.path("upstream").asString(),
                request.path("method").asString(),
                request.path("url").asString(),
                call == null
                                || call.path("status").isNull()
                                || call.path("status").isMissingNode()
                        ? null
                        : call.path("status").asInt(),
                call == null || run.termination() == null
                        ? null
                        : run.termination().name(),
                headers,
                call == null ? 0 : call.path("attempts").asInt(),
                call == null || !call.path("reason").isString()
                        ? null
                        : call.path("reason").asString(),
                call == null || !call.path("text").isBoolean()
                        ? null
                        : call.path("text").asBoolean(),
                started,
                ended,
                started == null || ended == null
                        ? null
                        : java.time.Duration.between(started, ended).toMillis());
    }

    /** What Airlock called on an upstream MCP server and observed: the recorded call and, once ended, the facts. */
    public static Envelope.McpFacts mcp(RunRecord run) {
        JsonNode request = JSON.readTree(java.util.Objects.requireNonNull(run.requestJson(), "the call of an MCP run"));
        JsonNode call = run.callJson() == null ? null : JSON.readTree(run.callJson());
        Instant started = run.startedAt();
        Instant ended = call == null ? null : run.endedAt();
        return new Envelope.McpFacts(
                request.path("server").asString(),
                request.path("tool").asString(),
                call == null || run.termination() == null
                        ? null
                        : run.termination().name(),
                call == null || !call.path("isError").isBoolean()
                        ? null
                        : call.path("isError").asBoolean(),
                call == null || !call.path("errorCode").isNumber()
                        ? null
                        : call.path("errorCode").asInt(),
                call == null || !call.path("reason").isString()
                        ? null
                        : call.path("reason").asString(),
                started,
                ended,
                started == null || ended == null
                        ? null
                        : java.time.Duration.between(started, ended).toMillis());
    }

    /**
     * The run's captured streams with their transcripts, as the envelope shows them but without
     * the fenced copy of the text ({@code fenced} is null): for callers that fence what they show.
     */
    @Transactional(readOnly = true)
    public Map<StreamName, Envelope.StreamView> unfencedStreams(RunRecord run) {
        return streams(run, false);
    }

    private Map<StreamName, Envelope.StreamView> streams(RunRecord run, boolean fence) {
        Map<StreamName, String> texts = new EnumMap<>(StreamName.class);
        transcripts.findByKeyRunId(run.id()).forEach(t -> texts.put(t.key().stream(), t.text()));
        return views(run, streams.findByKeyRunId(run.id()), texts, fence);
    }

    /** The streams' views from their facts and transcripts, read back or as just written. */
    private static Map<StreamName, Envelope.StreamView> views(
            RunRecord run, List<StreamRecord> facts, Map<StreamName, String> texts, boolean fence) {
        Map<StreamName, Envelope.StreamView> views = new EnumMap<>(StreamName.class);
        facts.forEach(f -> views.put(f.key().stream(), view(run, f, texts.get(f.key().stream()), fence)));
        return views;
    }

    /** The sanitized transcript of one stream, or null when there is none. */
    @Transactional(readOnly = true)
    public @Nullable String transcript(RunRecord run, StreamName stream) {
        return transcripts
                .findById(new dev.airlock.persistence.run.StreamKey(run.id(), stream))
                .map(Transcript::text)
                .orElse(null);
    }

    private static Envelope.StreamView view(RunRecord run, StreamRecord f, @Nullable String text, boolean fence) {
        String fenced = text == null || !fence ? null : Fence.wrap(label(run, f.key().stream()), text);
        Map<String, Long> removed =
                JSON.readValue(f.removedJson(), new TypeReference<LinkedHashMap<String, Long>>() {});
        return new Envelope.StreamView(
                text,
                fenced,
                f.observedBytes(),
                f.retainedBytes(),
                f.truncated(),
                f.eof(),
                f.sha256(),
                removed,
                f.redactions());
    }

    /** What a fence names: the tool and the stream, which for a call's answer is its body. */
    public static String label(RunRecord run, StreamName stream) {
        return run.tool() + " "
                + (run.kind() != ActionKind.PROCESS && stream == StreamName.STDOUT ? "response body" : stream.key());
    }

    private Envelope.Approval approval(RunRecord run) {
        String status = status(run);
        List<Envelope.Decision> given = run.approvalRequired()
                ? decisions.findByRunIdOrderByDecidedAtAsc(run.id()).stream()
                        .map(d ->
                                new Envelope.Decision(d.approver(), d.decision().name(), d.reason(), d.decidedAt()))
                        .toList()
                : List.of();
        return new Envelope.Approval(run.approvalRequired(), status, given, run.policyRule());
    }

    /** The approval status the envelope shows for the run's state. */
    private static String status(RunRecord run) {
        if (!run.approvalRequired()) {
            return run.state() == RunState.DENIED ? "DENIED" : "NOT_REQUIRED";
        }
        return switch (run.state()) {
            case PENDING_APPROVAL, REQUESTED -> "PENDING";
            case DENIED -> "DENIED";
            case EXPIRED -> "EXPIRED";
            case CANCELLED -> run.startedAt() == null ? "CANCELLED" : "APPROVED";
            default -> "APPROVED";
        };
    }
}
