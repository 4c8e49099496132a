/**
 * Runs an action's process in its own sandbox through pipes and observes it: bounded capture of
 * each stream, SHA-256 of everything observed, streaming sanitization and redaction, time and
 * output limits, and killing the whole process tree when a limit is reached or the run is cancelled.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"settings"})
package dev.airlock.gateway.capture;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
