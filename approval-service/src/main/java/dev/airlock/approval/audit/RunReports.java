package dev.airlock.approval.audit;

import dev.airlock.approval.request.ApprovalService;
import dev.airlock.approval.request.ApprovalView;
import dev.airlock.kernel.problem.RunNotFound;
import dev.airlock.persistence.artifact.RawArtifactDigest;
import dev.airlock.persistence.artifact.RawArtifactStore;
import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.persistence.envelope.RunViews;
import dev.airlock.persistence.retention.LegalHolds;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import dev.airlock.persistence.run.StreamName;
import dev.airlock.sanitizer.Fence;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** Builds the authorization-versus-output report of one run for an auditor of its tenant. */
@Component
public class RunReports {

    /** The most characters of each stream's transcript a report shows. */
    public static final int EXCERPT_CHARS = 4000;

    private final RunRepository runs;
    private final RunViews views;
    private final ApprovalService approvals;
    private final RawArtifactStore artifacts;
    private final LegalHolds holds;
    private final RawAccess raw;

    RunReports(
            RunRepository runs,
            RunViews views,
            ApprovalService approvals,
            RawArtifactStore artifacts,
            LegalHolds holds,
            RawAccess raw) {
        this.runs = runs;
        this.views = views;
        this.approvals = approvals;
        this.artifacts = artifacts;
        this.holds = holds;
        this.raw = raw;
    }

    /** The report of a run of {@code tenant}, which the caller has checked the person audits. */
    @Transactional(readOnly = true)
    public RunReport report(String tenant, UUID runId) {
        RunRecord run = runs.findByIdAndTenantIn(runId, Set.of(tenant)).orElseThrow(() -> RunNotFound.forId(runId));
        Map<StreamName, Envelope.StreamView> observed = views.unfencedStreams(run);
        RunReport.Authorization authorization = authorization(run);
        Map<String, RunReport.StreamFacts> streams = new LinkedHashMap<>();
        Map<String, String> excerpts = new LinkedHashMap<>();
        Map<String, Boolean> truncated = new LinkedHashMap<>();
        for (StreamName name : StreamName.values()) {
            stream(name.key(), observed.get(name), run.tool(), streams, excerpts, truncated);
        }
        RunReport.RawArtifact artifact = artifacts
                .describe(tenant, runId)
                .map(a -> new RunReport.RawArtifact(
                        RawArtifactDigest.REFERENCE_PREFIX + a.sha256(),
                        a.sha256(),
                        a.stdoutBytes(),
                        a.stderrBytes(),
                        a.storedAt(),
                        a.present(),
                        a.purgedAt(),
                        a.redactions()))
                .orElse(null);
        RunReport.Observations observations = new RunReport.Observations(
                run.state().name(), RunViews.process(run), streams, excerpts, truncated, artifact);
        RunReport.LegalHold hold = holds.find(tenant, runId)
                .map(h -> new RunReport.LegalHold(h.reason(), h.placedBy(), h.placedAt()))
                .orElse(null);
        return new RunReport(runId.toString(), tenant, authorization, observations, hold, raw.forRun(tenant, runId));
    }

    /** Who asked for {@code run} and who decided: the authorization column of its report alone. */
    @Transactional(readOnly = true)
    public RunReport.Authorization authorization(RunRecord run) {
        ApprovalView approval = approvals.find(run.id(), Set.of(run.tenant())).orElse(null);
        return new RunReport.Authorization(
                run.agent(),
                run.tool(),
                run.argumentsJson(),
                run.createdAt(),
                run.approvalRequired(),
                approval == null ? null : request(approval),
                approval == null
                        ? List.of()
                        : approval.decisions().stream()
                                .map(d -> new RunReport.Decision(
                                        d.approver(), d.decision().name(), d.reason(), d.digest(), d.decidedAt()))
                                .toList());
    }

    private static RunReport.ApprovalRequest request(ApprovalView approval) {
        var r = approval.request();
        return new RunReport.ApprovalRequest(
                r.status().name(),
                r.action(),
                r.digest(),
                r.approversRequired(),
                r.requester(),
                r.createdAt(),
                r.expiresAt(),
                r.closedAt());
    }

    private static void stream(
            String name,
            Envelope.@Nullable StreamView view,
            String tool,
            Map<String, RunReport.StreamFacts> streams,
            Map<String, String> excerpts,
            Map<String, Boolean> truncated) {
        if (view == null) {
            return;
        }
        streams.put(
                name,
                new RunReport.StreamFacts(
                        view.observedBytes(),
                        view.retainedBytes(),
                        view.truncated(),
                        view.eof(),
                        view.sha256(),
                        view.removed(),
                        view.redactions()));
        if (view.text() != null) {
            boolean cut = view.text().length() > EXCERPT_CHARS;
            String excerpt = cut ? cutAt(view.text(), EXCERPT_CHARS) : view.text();
            excerpts.put(name, Fence.wrap(tool + " " + name, excerpt));
            truncated.put(name, cut);
        }
    }

    private static String cutAt(String text, int chars) {
        int end = Character.isHighSurrogate(text.charAt(chars - 1)) ? chars - 1 : chars;
        return text.substring(0, end);
    }
}
