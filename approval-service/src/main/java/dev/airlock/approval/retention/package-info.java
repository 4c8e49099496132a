/** The scheduled retention purge of every tenant. */
@ApplicationModule(allowedDependencies = {"settings"})
package dev.airlock.approval.retention;

import org.springframework.modulith.ApplicationModule;
