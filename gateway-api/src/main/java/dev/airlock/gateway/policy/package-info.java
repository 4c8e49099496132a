/**
 * Tool approval policies and their evaluation for a new run.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.gateway.policy;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
