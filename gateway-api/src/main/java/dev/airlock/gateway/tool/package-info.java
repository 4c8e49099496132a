/**
 * Tools: typed parameters, argument-vector templates, and validation of an agent's arguments
 * into the exact argument vector that will run.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"capture", "policy", "settings", "tenant"})
package dev.airlock.gateway.tool;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
