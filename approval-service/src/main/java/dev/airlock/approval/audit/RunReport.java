package dev.airlock.approval.audit;

import dev.airlock.persistence.envelope.Envelope;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A run as an auditor sees it: who authorized the action, and, kept apart, what the action
 * returned. Nothing the output says is ever copied into the authorization column; the output
 * appears only as the fenced transcript excerpt among the observations.
 *
 * @param runId         the run
 * @param tenant        its tenant
 * @param authorization who asked for what, and who decided
 * @param observations  what Airlock observed when it ran the action
 * @param legalHold     the run's legal hold, or null
 * @param grants        raw-access grants asked for on this run
 */
public record RunReport(
        String runId,
        String tenant,
        Authorization authorization,
        Observations observations,
        @Nullable LegalHold legalHold,
        List<RawAccess.GrantView> grants) {

    /**
     * The authorization column.
     *
     * @param agent            the requesting agent
     * @param tool             the tool
     * @param arguments        the arguments as the agent sent them, after validation (JSON)
     * @param requestedAt      when the agent asked
     * @param approvalRequired whether policy required a human decision
     * @param approval         the approval request, or null when none was required (or it has been purged)
     * @param decisions        every decision on it, in order
     */
    public record Authorization(
            String agent,
            String tool,
            String arguments,
            Instant requestedAt,
            boolean approvalRequired,
            @Nullable ApprovalRequest approval,
            List<Decision> decisions) {}

    /**
     * The approval request exactly as approvers saw it.
     *
     * @param status            PENDING, APPROVED, DENIED or EXPIRED
     * @param action            the canonical action text approvers were shown
     * @param digest            its SHA-256, which each decision had to name
     * @param approversRequired distinct approvers needed
     * @param requester         the person behind the agent, who could not approve, or null
     * @param createdAt         when it was opened
     * @param expiresAt         when it would lapse
     * @param closedAt          when it was decided or lapsed, or null
     */
    public record ApprovalRequest(
            String status,
            String action,
            String digest,
            int approversRequired,
            @Nullable String requester,
            Instant createdAt,
            Instant expiresAt,
            @Nullable Instant closedAt) {}

    /**
     * One decision.
     *
     * @param approver  who
     * @param decision  APPROVE or DENY
     * @param reason    their reason, or null
     * @param digest    the action digest they approved or denied
     * @param decidedAt when
     */
    public record Decision(
            String approver, String decision, @Nullable String reason, String digest, Instant decidedAt) {}

    /**
     * The observations column: facts only Airlock writes, and the output as untrusted text.
     *
     * @param state             the run's state
     * @param process           exit code, termination and times
     * @param streams           per stream: byte counts, digests, truncation, removal and redaction counts
     * @param transcriptExcerpt per stream: the start of the sanitized transcript, fenced as untrusted
     *                          data; a stream is absent when it has no transcript (never had one, or it was purged)
     * @param excerptTruncated  per stream: whether the excerpt is shorter than the transcript
     * @param rawArtifact       the raw artifact's reference and whether its bytes still exist, or null
     */
    public record Observations(
            String state,
            Envelope.ProcessFacts process,
            Map<String, StreamFacts> streams,
            Map<String, String> transcriptExcerpt,
            Map<String, Boolean> excerptTruncated,
            @Nullable RawArtifact rawArtifact) {}

    /**
     * What Airlock counted of one stream.
     *
     * @param observedBytes bytes the process wrote
     * @param retainedBytes bytes kept
     * @param truncated     whether bytes were dropped
     * @param eof           whether the stream reached its end
     * @param sha256        SHA-256 of every observed byte
     * @param removed       removals by the sanitizer, by kind
     * @param redactions    secrets redacted
     */
    public record StreamFacts(
            long observedBytes,
            long retainedBytes,
            boolean truncated,
            boolean eof,
            String sha256,
            Map<String, Long> removed,
            long redactions) {}

    /**
     * The raw artifact as far as it can be known without reading it.
     *
     * @param reference   how the envelope names it
     * @param sha256      its digest
     * @param stdoutBytes retained stdout bytes
     * @param stderrBytes retained stderr bytes
     * @param storedAt    when it was stored
     * @param present     whether the bytes still exist
     * @param purgedAt    when retention removed them, or null
     * @param redactions  how many values of secrets Airlock injected were replaced in the stored bytes
     */
    public record RawArtifact(
            String reference,
            String sha256,
            long stdoutBytes,
            long stderrBytes,
            Instant storedAt,
            boolean present,
            @Nullable Instant purgedAt,
            long redactions) {}

    /**
     * A legal hold.
     *
     * @param reason   why
     * @param placedBy who
     * @param placedAt when
     */
    public record LegalHold(String reason, String placedBy, Instant placedAt) {}
}
