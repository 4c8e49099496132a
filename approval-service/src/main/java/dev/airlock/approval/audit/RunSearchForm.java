package dev.airlock.approval.audit;

import org.jspecify.annotations.Nullable;

/**
 * An audit query as it arrives from the API or the console's search form: every field is text
 * (or a number) still to be checked.
 *
 * @param tenant      the tenant (required)
 * @param from        ISO-8601 instant: runs requested at or after it
 * @param to          ISO-8601 instant: runs requested before it
 * @param agent       the agent's name
 * @param tool        the tool's name
 * @param state       a run state, e.g. COMPLETED
 * @param approver    a person who decided on the run
 * @param decision    APPROVE or DENY
 * @param exitCode    the exit code
 * @param termination EXITED, TIMEOUT, OUTPUT_LIMIT, CANCELLED or SPAWN_FAILED
 * @param q           text to find in the sanitized transcript (3 to 200 characters, case-insensitive)
 * @param sort        newest (default) or oldest
 * @param limit       runs per page, 1 to 500 (default 50)
 * @param cursor      the {@code next} cursor of the previous page
 */
public record RunSearchForm(
        @Nullable String tenant,
        @Nullable String from,
        @Nullable String to,
        @Nullable String agent,
        @Nullable String tool,
        @Nullable String state,
        @Nullable String approver,
        @Nullable String decision,
        @Nullable Integer exitCode,
        @Nullable String termination,
        @Nullable String q,
        @Nullable String sort,
        @Nullable Integer limit,
        @Nullable String cursor) {

    /** The same form for another tenant. */
    public RunSearchForm withTenant(@Nullable String other) {
        return new RunSearchForm(
                other, from, to, agent, tool, state, approver, decision, exitCode, termination, q, sort, limit, cursor);
    }
}
