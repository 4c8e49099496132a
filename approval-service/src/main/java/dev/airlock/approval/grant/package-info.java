/**
 * Raw-access grants: the one way for a person to the bytes of a raw artifact. An auditor asks
 * with a reason, a second person decides when the tenant's policy says so, and the requester
 * alone reads the bytes until the grant expires; every step is an audit event.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"input", "request"})
package dev.airlock.approval.grant;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
