/**
 * Tool approval policies and their evaluation for a new run.
 */
@ApplicationModule(allowedDependencies = {})
package dev.airlock.gateway.policy;

import org.springframework.modulith.ApplicationModule;
