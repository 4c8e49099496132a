/**
 * Tenants, their agents and the tool definitions runs were requested under, as recorded from
 * the configuration.
 */
@ApplicationModule(allowedDependencies = {"audit", "scope"})
package dev.airlock.persistence.tenant;

import org.springframework.modulith.ApplicationModule;
