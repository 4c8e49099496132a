/**
 * Retention: the purge of raw bytes, transcripts, approvals, audit events and finally run rows
 * when their tenant's periods end, and the legal holds that suspend it for a run.
 */
@ApplicationModule(allowedDependencies = {"audit"})
package dev.airlock.persistence.retention;

import org.springframework.modulith.ApplicationModule;
