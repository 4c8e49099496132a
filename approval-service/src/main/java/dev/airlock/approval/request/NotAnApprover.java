package dev.airlock.approval.request;

import java.util.UUID;

/** The person may not decide on this run: no request, or not an APPROVER of its tenant. */
public class NotAnApprover extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public NotAnApprover(UUID runId) {
        super("No approval request for run " + runId + " that you may decide on.");
    }
}
