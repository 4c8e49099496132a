package dev.airlock.approval.request;

/** A decision the approval request cannot take, with the reason a human can act on. */
public class DecisionRefused extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a decision was refused. */
    public enum Reason {
        NOT_PENDING,
        EXPIRED,
        DIGEST_MISMATCH,
        ALREADY_DECIDED,
        SELF_APPROVAL,
        REASON_REQUIRED
    }

    private final Reason reason;

    public DecisionRefused(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
