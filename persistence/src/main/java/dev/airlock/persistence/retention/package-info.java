/**
 * Retention: the purge of raw bytes, transcripts, approvals, audit events and finally run rows
 * when their tenant's periods end, and the legal holds that suspend it for a run.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"audit"})
package dev.airlock.persistence.retention;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
