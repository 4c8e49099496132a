/**
 * Per-tenant concurrency (bulkheads) and per-agent request rates (rate limiters), built on
 * Resilience4j. Limits hold per replica.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"problem", "settings", "tenant"})
package dev.airlock.gateway.limits;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
