/**
 * Tools: typed parameters, argument-vector templates, and validation of an agent's arguments
 * into the exact argument vector that will run.
 */
@ApplicationModule(allowedDependencies = {"capture", "policy", "settings", "tenant"})
package dev.airlock.gateway.tool;

import org.springframework.modulith.ApplicationModule;
