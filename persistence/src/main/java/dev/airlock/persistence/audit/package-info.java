/**
 * The append-only, hash-chained audit event log of each tenant.
 */
@ApplicationModule(allowedDependencies = {})
package dev.airlock.persistence.audit;

import org.springframework.modulith.ApplicationModule;
