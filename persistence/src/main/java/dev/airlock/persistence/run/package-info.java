/**
 * Runs, what Airlock observed of their streams, and their sanitized transcripts.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.persistence.run;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
