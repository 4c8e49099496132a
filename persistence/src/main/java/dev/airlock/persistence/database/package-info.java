/**
 * The default database: a real PostgreSQL started by the gateway itself when no
 * {@code spring.datasource.url} is configured.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"scope"})
package dev.airlock.persistence.database;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
