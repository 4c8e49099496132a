/**
 * Retention: the purge of raw bytes, transcripts, approvals, audit events and finally run rows
 * when their tenant's periods end, and the legal holds that suspend it for a run.
 */
package dev.airlock.persistence.retention;
