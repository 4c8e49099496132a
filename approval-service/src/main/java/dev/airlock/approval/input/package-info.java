/** Bounds on the free text people type into Airlock: reasons, names, notes. */
@ApplicationModule(allowedDependencies = {})
package dev.airlock.approval.input;

import org.springframework.modulith.ApplicationModule;
