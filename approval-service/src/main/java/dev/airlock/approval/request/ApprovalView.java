package dev.airlock.approval.request;

import dev.airlock.persistence.approval.ApprovalDecision;
import dev.airlock.persistence.approval.ApprovalRequest;
import java.util.List;

/**
 * A request with the decisions recorded on it so far.
 *
 * @param request   the request
 * @param decisions its decisions, oldest first
 */
public record ApprovalView(ApprovalRequest request, List<ApprovalDecision> decisions) {
}
