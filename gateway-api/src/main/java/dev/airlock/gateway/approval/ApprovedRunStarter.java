package dev.airlock.gateway.approval;

/** Starts the approved runs of a tenant that are waiting for an executor. */
@FunctionalInterface
public interface ApprovedRunStarter {

    void startApproved(String tenant);
}
