/**
 * Which database role and which tenants a transaction works as: {@link DatabaseScope} names
 * them for the current thread, {@link ScopedTransactionManager} applies them with
 * {@code SET LOCAL} at the start of every transaction, and PostgreSQL's grants and row-level
 * security do the rest (docs/database.md).
 */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.persistence.scope;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
