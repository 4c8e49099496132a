/**
 * Approval requests and decisions: recording decisions under a row lock by the rules of
 * {@link dev.airlock.approval.request.DecisionRules} (pending, expiry, digest, self-approval,
 * once per person, reasons, quorum), settling the run when a request closes, the expiry job and
 * the approval metrics. The agent side opens requests and learns of their outcome through the
 * database only.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"input", "people"})
package dev.airlock.approval.request;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
