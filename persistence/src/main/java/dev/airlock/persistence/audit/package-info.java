/**
 * The append-only, hash-chained audit event log of each tenant.
 */
package dev.airlock.persistence.audit;
