/**
 * Errors as RFC 9457 problem details: the exceptions the API raises and the one advice that
 * renders every error, never with a stack trace.
 */
@ApplicationModule(allowedDependencies = {"http"})
package dev.airlock.gateway.problem;

import org.springframework.modulith.ApplicationModule;
