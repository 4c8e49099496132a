package dev.airlock.persistence.envelope;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What an agent gets back about a run. Every field outside the {@code text} and {@code fenced}
 * bodies is written by Airlock from what its supervisor observed; nothing the process printed
 * can set them.
 *
 * @param runId        the run id
 * @param tenant       the tenant
 * @param agent        the agent that asked
 * @param tool         the tool
 * @param state        the run state
 * @param createdAt    when the run was requested
 * @param approval     whether approval was needed and what was decided
 * @param process      exit status, termination and times of a process; null for a call to an upstream
 * @param http         for an HTTP tool: the request and what Airlock observed of the call; else null
 * @param mcp          for an upstream MCP server's tool: the call and what Airlock observed of it; else null
 * @param stdout       standard output, or null before the run ends
 * @param stderr       standard error, or null before the run ends
 * @param rawArtifact  an opaque reference to the raw bytes (for auditors only), or null
 */
public record Envelope(
        String runId,
        String tenant,
        String agent,
        String tool,
        String state,
        Instant createdAt,
        Approval approval,
        @Nullable ProcessFacts process,
        @Nullable HttpFacts http,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable McpFacts mcp,
        @Nullable StreamView stdout,
        @Nullable StreamView stderr,
        @Nullable String rawArtifact) {

    /**
     * @param required  whether policy asked for a human decision
     * @param status    NOT_REQUIRED, PENDING, APPROVED, DENIED, EXPIRED or CANCELLED
     * @param decisions the decisions recorded so far
     * @param rule      the policy rule that decided ({@code rule 2: args.namespace == "prod"}, or
     *                  {@code the tool's own settings}); null for runs requested before rules existed
     */
    public record Approval(
            boolean required,
            String status,
            List<Decision> decisions,
            @Nullable String rule) {}

    /**
     * @param approver  who decided
     * @param decision  APPROVE or DENY
     * @param reason    why
     * @param decidedAt when
     */
    public record Decision(
            String approver, String decision, @Nullable String reason, Instant decidedAt) {}

    /**
     * @param exitCode    the exit code, only when the process exited by itself
     * @param termination EXITED, TIMEOUT, OUTPUT_LIMIT, CANCELLED or SPAWN_FAILED, once ended
     * @param startedAt   when the process started
     * @param endedAt     when it ended
     * @param failure     why Airlock could not run it, for SPAWN_FAILED
     * @param sandbox     what the process was isolated by: bubblewrap or none; null if no process was started
     */
    public record ProcessFacts(
            @Nullable Integer exitCode,
            @Nullable String termination,
            @Nullable Instant startedAt,
            @Nullable Instant endedAt,
            @Nullable String failure,
            @Nullable String sandbox) {}

    /**
     * What Airlock sent to an upstream API and observed of its answer. The body is the run's
     * {@code stdout} stream.
     *
     * @param upstream    the upstream's name
     * @param method      the method sent
     * @param url         the URL sent (never with credentials)
     * @param status      the status of the answer read, or null when none was
     * @param termination RESPONDED, TIMED_OUT, CONNECT_FAILED, CIRCUIT_OPEN, RESPONSE_LIMIT, REFUSED or
     *                    CANCELLED, once ended
     * @param headers     the answer's content type and length, when sent
     * @param attempts    attempts made (retries of idempotent requests included)
     * @param reason      why the call failed or was refused, once ended; null when it responded
     * @param bodyIsText  whether the body was text (false: only the raw artifact holds it), once ended
     * @param startedAt   when the call started
     * @param endedAt     when it ended
     * @param durationMs  how long it took, in milliseconds, once ended
     */
    public record HttpFacts(
            String upstream,
            String method,
            String url,
            @Nullable Integer status,
            @Nullable String termination,
            Map<String, String> headers,
            int attempts,
            @Nullable String reason,
            @Nullable Boolean bodyIsText,
            @Nullable Instant startedAt,
            @Nullable Instant endedAt,
            @Nullable Long durationMs) {}

    /**
     * What Airlock called on an upstream MCP server and observed of the answer. The result's text
     * (sanitized, structured content as JSON text, other content described) is the run's
     * {@code stdout}; the raw artifact holds the server's complete JSON-RPC answer.
     *
     * @param server      the tenant's MCP server
     * @param tool        the tool's name on that server
     * @param termination RESPONDED, TIMED_OUT, UPSTREAM_ERROR, SERVER_DOWN, RESPONSE_LIMIT, REFUSED or CANCELLED,
     *                    once ended
     * @param isError     the result's {@code isError} as the server set it, when it answered with a result
     * @param errorCode   the JSON-RPC error's code, for UPSTREAM_ERROR
     * @param reason      why the call failed or was refused (for UPSTREAM_ERROR the server's message, sanitized)
     * @param startedAt   when the call started
     * @param endedAt     when it ended
     * @param durationMs  how long it took, in milliseconds, once ended
     */
    public record McpFacts(
            String server,
            String tool,
            @Nullable String termination,
            @Nullable Boolean isError,
            @Nullable Integer errorCode,
            @Nullable String reason,
            @Nullable Instant startedAt,
            @Nullable Instant endedAt,
            @Nullable Long durationMs) {}

    /**
     * @param text          the sanitized, redacted transcript (untrusted data)
     * @param fenced        the same text inside the untrusted-output fence
     * @param observedBytes bytes read from the pipe
     * @param retainedBytes bytes kept
     * @param truncated     whether fewer bytes were kept than observed
     * @param eof           whether the end of the stream was seen
     * @param sha256        SHA-256 of every observed byte
     * @param removed       what the sanitizer removed, by class
     * @param redactions    secret values replaced
     */
    public record StreamView(
            @Nullable String text,
            @Nullable String fenced,
            long observedBytes,
            long retainedBytes,
            boolean truncated,
            boolean eof,
            String sha256,
            Map<String, Long> removed,
            long redactions) {}
}
