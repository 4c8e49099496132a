package dev.airlock.approval.request;

import dev.airlock.persistence.approval.ApprovalStatus;
import java.util.UUID;

/**
 * Published, inside the deciding transaction, when a request is approved, denied or expires.
 *
 * @param runId  the run
 * @param tenant its tenant
 * @param status APPROVED, DENIED or EXPIRED
 */
public record ApprovalClosed(UUID runId, String tenant, ApprovalStatus status) {
}
