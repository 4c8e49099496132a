/**
 * Runs, as the agent side makes them: requesting one (policy, limits, the approval request when
 * policy wants one), executing it exactly once on one replica (leases, the dispatcher of approved
 * runs, the sandboxed launch), and recording what was observed. The envelope that reports a run
 * is built from the record by {@code persistence.envelope}; {@code run.web} serves it as JSON.
 */
@NullMarked
@ApplicationModule(
        allowedDependencies = {
            "capture",
            "limits",
            "mcpupstream",
            "policy",
            "problem",
            "settings",
            "tenant",
            "tool",
            "upstream"
        })
package dev.airlock.gateway.run;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
