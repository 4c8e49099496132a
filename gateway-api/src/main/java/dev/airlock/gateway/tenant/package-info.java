/**
 * Tenants and their agents: who a bearer key belongs to, and the records that tie runs to them.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {})
package dev.airlock.gateway.tenant;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
