/**
 * The address guard: which addresses Airlock may connect to on an upstream's behalf, checked when a
 * name is resolved (so that a refusal names the host and its address) and again when the socket
 * connects, on the address it actually connects to (so that nothing reaches a refused address, not
 * through a redirect, a second lookup or a resolver that changed its mind: DNS rebinding fails).
 */
@NullMarked
package dev.airlock.egress.guard;

import org.jspecify.annotations.NullMarked;
