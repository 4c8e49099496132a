package dev.airlock.persistence.event;

import dev.airlock.persistence.approval.ApprovalStatus;
import java.util.UUID;

/**
 * Published, inside the deciding transaction, when a request is approved, denied or expires.
 *
 * @param runId  the run
 * @param tenant its tenant
 * @param tool   the tool
 * @param digest SHA-256 of the canonical action
 * @param status APPROVED, DENIED or EXPIRED
 */
public record ApprovalClosed(UUID runId, String tenant, String tool, String digest, ApprovalStatus status) {}
