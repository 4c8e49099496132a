/**
 * HTTP tools' calls: one guarded client per tenant upstream, made at start-up from the settings
 * (an unusable trust store stops the start), and the call of one run: its request as recorded, the
 * upstream's credential read from its secret source at that moment, the answer's body through the
 * same capture as a process's output (bounded, sanitized, redacted), and what Airlock observed.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"capture", "settings", "tool"})
package dev.airlock.gateway.upstream;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
