package dev.airlock.egress;

/** Lets whoever owns a call cancel it: the call registers how to cut its connection. */
@FunctionalInterface
public interface CallControl {

    /** A call nobody cancels. */
    CallControl NONE = abort -> {};

    /** Registers what to run when the call is cancelled (at once if it already was). */
    void onCancel(Runnable abort);
}
