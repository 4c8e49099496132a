/** The events one side publishes and the other hears, within one process: approval requests opened and closed, approved runs finished. */
@NullMarked
@ApplicationModule(allowedDependencies = {"approval", "run"})
package dev.airlock.persistence.event;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
