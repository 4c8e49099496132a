package dev.airlock.persistence.retention;

import java.time.Instant;

/**
 * For each kind of record, the instant before which a tenant's records of that kind go.
 *
 * @param raw         raw artifact bytes stored before this go (their digest and sizes stay)
 * @param transcripts sanitized transcripts
 * @param approvals   decided approval requests and their decisions
 * @param auditEvents audit events (the oldest part of the chain)
 */
public record RetentionCutoffs(Instant raw, Instant transcripts, Instant approvals, Instant auditEvents) {}
