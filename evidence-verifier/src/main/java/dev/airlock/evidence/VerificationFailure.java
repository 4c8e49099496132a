package dev.airlock.evidence;

/** The first check of a bundle that failed; its message names what and where. */
public final class VerificationFailure extends RuntimeException {

    public VerificationFailure(String message) {
        super(message, null, false, false);
    }
}
