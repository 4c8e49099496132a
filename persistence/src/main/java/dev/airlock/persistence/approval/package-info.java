/**
 * Approval requests and decisions: who authorized which exact action, stored apart from what
 * the action returned.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"run"})
package dev.airlock.persistence.approval;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
