/**
 * Everything Airlock sends out over HTTP goes through one guarded client: an {@link
 * dev.airlock.egress.Upstream} per upstream (an HTTP tool's API, a notification receiver), with the
 * address guard of {@code egress.guard}, redirects followed only within the request's origin, a
 * bounded response, and Resilience4j's circuit breaker, retry (idempotent requests only), bulkhead
 * and time limiter, whose metrics carry the upstream's name.
 */
@NullMarked
package dev.airlock.egress;

import org.jspecify.annotations.NullMarked;
