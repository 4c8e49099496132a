/**
 * The application's security chains: agents authenticate with bearer keys on the agent API and
 * MCP only (stateless, errors as problem details), and everything else is closed but for probes,
 * the API document and scrapes. The people's chain is the people's side's ({@code approval.people.web}).
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"settings", "tenant"})
package dev.airlock.gateway.security;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
