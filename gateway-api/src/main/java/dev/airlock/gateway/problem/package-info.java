/**
 * Errors as RFC 9457 problem details: the exceptions the API raises and the one advice that
 * renders every error, never with a stack trace.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"http"})
package dev.airlock.gateway.problem;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
