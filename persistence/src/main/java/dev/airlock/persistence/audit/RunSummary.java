package dev.airlock.persistence.audit;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One run as an audit query lists it: the authorization and the process facts, never output.
 *
 * @param id               the run
 * @param tenant           its tenant
 * @param agent            the requesting agent
 * @param tool             the tool
 * @param state            the run's state
 * @param approvalStatus   PENDING, APPROVED, DENIED or EXPIRED; null when no approval was required
 * @param decisions        the decisions as {@code approver:DECISION}, comma-separated in order, or empty
 * @param exitCode         the exit code, or null
 * @param termination      how the process ended, or null
 * @param createdAt        when it was requested
 * @param startedAt        when the process started, or null
 * @param endedAt          when it ended, or null
 */
public record RunSummary(
        UUID id,
        String tenant,
        String agent,
        String tool,
        String state,
        @Nullable String approvalStatus,
        String decisions,
        @Nullable Integer exitCode,
        @Nullable String termination,
        Instant createdAt,
        @Nullable Instant startedAt,
        @Nullable Instant endedAt) {}
