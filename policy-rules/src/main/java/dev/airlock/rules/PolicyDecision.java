package dev.airlock.rules;

import org.jspecify.annotations.Nullable;

/**
 * The policy a run request gets, and why.
 *
 * @param policy    the policy that applies
 * @param ruleIndex the rule that decided (counted from 1), or null when none held and the tool's own
 *                  settings decide, or when evaluation failed
 * @param ruleText  that rule's expression, or null
 * @param failure   why a rule could not be evaluated (the request is then denied), or null
 */
public record PolicyDecision(
        ToolPolicy policy,
        @Nullable Integer ruleIndex,
        @Nullable String ruleText,
        @Nullable String failure) {

    /** The text every record, view and digest shows for the rule that decided. */
    public String rule() {
        if (failure != null) {
            return "none: " + failure + " (denied)";
        }
        return ruleIndex == null ? "the tool's own settings" : "rule " + ruleIndex + ": " + ruleText;
    }
}
