/**
 * Runs, what Airlock observed of their streams, and their sanitized transcripts.
 */
@ApplicationModule(allowedDependencies = {})
package dev.airlock.persistence.run;

import org.springframework.modulith.ApplicationModule;
