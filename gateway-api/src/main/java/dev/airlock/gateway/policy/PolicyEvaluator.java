package dev.airlock.gateway.policy;

import dev.airlock.rules.ToolPolicy;
import java.time.Clock;
import org.springframework.stereotype.Component;

/** Evaluates a tool's approval policy for a new run. Stateless and thread-safe. */
@Component
public class PolicyEvaluator {

    private final Clock clock;

    public PolicyEvaluator(Clock clock) {
        this.clock = clock;
    }

    /** What {@code policy} says about a run requested now. */
    public PolicyVerdict evaluate(ToolPolicy policy) {
        return switch (policy.mode()) {
            case AUTO -> new PolicyVerdict.Auto();
            case DENY -> new PolicyVerdict.Deny();
            case REQUIRED ->
                new PolicyVerdict.Required(policy.approvers(), clock.instant().plus(policy.approvalTimeout()));
        };
    }
}
