/**
 * Per-tenant concurrency (bulkheads) and per-agent request rates (rate limiters), built on
 * Resilience4j. Limits hold per replica.
 */
package dev.airlock.gateway.limits;
