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

    private static final java.util.Set<String> FILTERS = java.util.Arrays.stream(
                    RunSearchForm.class.getRecordComponents())
            .map(java.lang.reflect.RecordComponent::getName)
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /**
     * Refuses a query parameter that is none of the form's filters nor one of {@code others}: a
     * misspelled filter ({@code exit_code}) would otherwise be ignored, and the search answer runs it
     * did not filter.
     *
     * @throws dev.airlock.kernel.problem.InvalidRequest naming the parameter
     */
    public static void onlyItsFilters(java.util.Collection<String> given, String... others) {
        for (String name : given) {
            if (!FILTERS.contains(name) && !java.util.List.of(others).contains(name)) {
                String shown =
                        name.codePoints().allMatch(c -> c > 0x20 && c < 0x7f) && name.length() <= 64 ? name : "?";
                throw dev.airlock.kernel.problem.InvalidRequest.field(
                        shown,
                        "Query parameter '" + shown + "' is not a filter; the filters are "
                                + new java.util.TreeSet<>(FILTERS) + ".");
            }
        }
    }

    /** The same form for another tenant. */
    public RunSearchForm withTenant(@Nullable String other) {
        return new RunSearchForm(
                other, from, to, agent, tool, state, approver, decision, exitCode, termination, q, sort, limit, cursor);
    }
}
