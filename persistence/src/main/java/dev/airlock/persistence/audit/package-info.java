/**
 * The append-only, hash-chained audit event log of each tenant.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.persistence.audit;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
