package dev.airlock.approval.notify;

/**
 * The guarded client refused to deliver a notification (an address the receiver's policy does not
 * allow, a redirect it does not follow): trying again would be refused again, or send the same
 * message again, so it is not retried.
 */
final class DeliveryRefused extends RuntimeException {

    private static final long serialVersionUID = 1L;

    DeliveryRefused(String what) {
        super(what, null, false, false);
    }
}
