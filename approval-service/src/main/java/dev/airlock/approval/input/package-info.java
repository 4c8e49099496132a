/** Bounds on the free text people type into Airlock: reasons, names, notes. */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.approval.input;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
