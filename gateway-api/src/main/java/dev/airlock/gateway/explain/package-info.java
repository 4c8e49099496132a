/**
 * The policy explain command ({@code --airlock.policy.explain=<tenant>/<tool>}): the policy one tool
 * call would get and why, computed from the configuration alone, with nothing run and no database
 * opened, for a tenant admin checking rules before they go live.
 */
@NullMarked
@ApplicationModule(allowedDependencies = {"http", "policy", "settings", "tenant", "tool"})
package dev.airlock.gateway.explain;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
