/** The scheduled retention purge of every tenant. */
@NullMarked
@ApplicationModule(allowedDependencies = {"settings"})
package dev.airlock.approval.retention;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
