/**
 * Tenants, their agents and the tool definitions runs were requested under, as recorded from
 * the configuration.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"audit", "scope"})
package dev.airlock.persistence.tenant;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
