package dev.airlock.gateway.run.web;

import dev.airlock.gateway.run.OutputExcerpt;
import dev.airlock.gateway.run.OutputExcerpts;
import dev.airlock.gateway.run.RunService;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.kernel.problem.RunNotFound;
import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.persistence.envelope.RunViews;
import dev.airlock.persistence.run.StreamName;
import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Runs, for the agent that holds the bearer key. */
@ConditionalOnSide(Side.AGENT_API)
@RestController
@RequestMapping("/api/v1/runs")
class RunController {

    private final RunService runs;
    private final RunViews views;
    private final OutputExcerpts excerpts;
    private final Duration maxWait;

    RunController(RunService runs, RunViews views, OutputExcerpts excerpts, AgentSettings properties) {
        this.runs = runs;
        this.views = views;
        this.excerpts = excerpts;
        this.maxWait = properties.capture().maxWait();
    }

    /** Requests a run; 201 with its envelope, or 200 with the earlier run for a repeated Idempotency-Key. */
    @PostMapping
    ResponseEntity<Envelope> request(
            @AuthenticationPrincipal AgentIdentity agent,
            @RequestBody RunRequest request,
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
            @RequestParam(name = "wait", required = false) String wait) {
        Duration waitFor = parseWait(wait);
        RunService.Submission submission =
                runs.submit(agent, request.tool(), request.arguments(), idempotencyKey, request.reason(), waitFor);
        Envelope envelope = runs.envelopeAfter(agent, submission, waitFor);
        return submission.created()
                ? ResponseEntity.created(URI.create("/api/v1/runs/" + envelope.runId()))
                        .body(envelope)
                : ResponseEntity.ok(envelope);
    }

    @GetMapping("/{runId}")
    Envelope get(
            @AuthenticationPrincipal AgentIdentity agent,
            @PathVariable String runId,
            @RequestParam(name = "wait", required = false) String wait) {
        runs.admitRead(agent);
        return runs.awaitEnvelope(agent, RunNotFound.parseId(runId), parseWait(wait));
    }

    @GetMapping("/{runId}/output/{stream}")
    OutputExcerpt output(
            @AuthenticationPrincipal AgentIdentity agent,
            @PathVariable String runId,
            @PathVariable String stream,
            @RequestParam(required = false) Integer from,
            @RequestParam(required = false) Integer to,
            @RequestParam(required = false) String grep) {
        runs.admitRead(agent);
        StreamName name = StreamName.fromKey(stream)
                .orElseThrow(
                        () -> InvalidRequest.field("stream", "Stream must be stdout or stderr, not '" + stream + "'."));
        return excerpts.excerpt(runs.find(agent, RunNotFound.parseId(runId)), name, from, to, grep);
    }

    @PostMapping("/{runId}/cancel")
    Envelope cancel(@AuthenticationPrincipal AgentIdentity agent, @PathVariable String runId) {
        runs.admitRead(agent);
        return views.envelope(runs.cancel(agent, RunNotFound.parseId(runId)));
    }

    private Duration parseWait(String wait) {
        if (wait == null || wait.isBlank()) {
            return Duration.ZERO;
        }
        Duration duration;
        try {
            duration = Duration.parse(wait);
        } catch (DateTimeParseException e) {
            throw InvalidRequest.field("wait", "wait must be an ISO-8601 duration such as PT30S.");
        }
        if (duration.isNegative() || duration.compareTo(maxWait) > 0) {
            throw InvalidRequest.field("wait", "wait must be between PT0S and " + maxWait + ".");
        }
        return duration;
    }
}
