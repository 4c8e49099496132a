/**
 * Approval requests and decisions: who authorized which exact action, stored apart from what
 * the action returned.
 */
@ApplicationModule(allowedDependencies = {"run"})
package dev.airlock.persistence.approval;

import org.springframework.modulith.ApplicationModule;
