/**
 * Notifications to people: each tenant's webhooks hear of approval requests opened and decided,
 * and of how a run people approved ended ({@link dev.airlock.persistence.event.ApprovedRunFinished},
 * the event the agent side publishes when it records such a run's result).
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"settings"})
package dev.airlock.approval.notify;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
