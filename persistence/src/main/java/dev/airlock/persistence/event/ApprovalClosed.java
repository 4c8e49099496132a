package dev.airlock.persistence.event;

import dev.airlock.persistence.approval.ApprovalStatus;
import java.util.UUID;

/**
 * Published, inside the closing transaction, when a request is approved, denied, expires or is cancelled.
 *
 * @param runId  the run
 * @param tenant its tenant
 * @param tool   the tool
 * @param digest SHA-256 of the canonical action
 * @param status APPROVED, DENIED, EXPIRED or CANCELLED
 */
public record ApprovalClosed(UUID runId, String tenant, String tool, String digest, ApprovalStatus status) {}
