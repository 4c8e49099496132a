/**
 * Tenants and their agents: who a bearer key belongs to, and the records that tie runs to them.
 */
@ApplicationModule(allowedDependencies = {})
package dev.airlock.gateway.tenant;

import org.springframework.modulith.ApplicationModule;
