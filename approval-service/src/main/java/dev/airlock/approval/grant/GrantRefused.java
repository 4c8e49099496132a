package dev.airlock.approval.grant;

/** A grant request, decision or use that cannot be honoured, with the reason a person can act on. */
public class GrantRefused extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why. */
    public enum Reason {
        /** No such grant, run or artifact in the person's tenants. */
        NOT_FOUND,
        /** Retention has removed the raw bytes. */
        PURGED,
        /** A grant request needs a reason. */
        REASON_REQUIRED,
        /** The requester cannot decide on their own request. */
        SELF_APPROVAL,
        /** The request was decided already. */
        ALREADY_DECIDED,
        /** The request or the grant has expired. */
        EXPIRED,
        /** The grant belongs to someone else, or was refused, or awaits its decision. */
        NOT_USABLE
    }

    private final Reason reason;

    public GrantRefused(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
