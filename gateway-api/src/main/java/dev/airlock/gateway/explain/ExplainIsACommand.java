package dev.airlock.gateway.explain;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import org.springframework.stereotype.Component;

/**
 * Stops a server start that was given {@code airlock.policy.explain}: the setting runs the explain
 * command, which is started from the command line or the environment before any server exists
 * ({@link PolicyExplainCommand#requested}); reaching a server, it came from a configuration file,
 * where it would otherwise be silently ignored.
 */
@Component
class ExplainIsACommand {

    ExplainIsACommand(AgentSettings settings) {
        if (settings.policy().explain() != null) {
            throw new InvalidConfigurationException(
                    PolicyExplainCommand.PROPERTY,
                    "runs the policy explain command: give it on the command line (--" + PolicyExplainCommand.PROPERTY
                            + "=<tenant>/<tool>) or as AIRLOCK_POLICY_EXPLAIN, not in a configuration file the server reads");
        }
    }
}
