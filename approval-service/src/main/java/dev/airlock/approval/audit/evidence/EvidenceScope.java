package dev.airlock.approval.audit.evidence;

import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.kernel.problem.RunNotFound;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a bundle holds: one run, or the runs a tenant created in {@code [from, to)}.
 *
 * @param runId the run, or null for a time range
 * @param from  the range's start (inclusive), or null for one run
 * @param to    the range's end (exclusive), or null for one run
 */
public record EvidenceScope(
        @Nullable UUID runId,
        @Nullable Instant from,
        @Nullable Instant to) {

    /** The longest range one bundle covers. */
    public static final Duration MAX_RANGE = Duration.ofDays(366);

    /** The scope a request names: a run id, or both ends of a range; anything else is a 400 naming the field. */
    public static EvidenceScope of(@Nullable String runId, @Nullable String from, @Nullable String to) {
        if (runId != null && !runId.isBlank()) {
            if (from != null || to != null) {
                throw InvalidRequest.field("runId", "Give either 'runId' or 'from' and 'to', not both.");
            }
            try {
                return new EvidenceScope(RunNotFound.parseId(runId.strip()), null, null);
            } catch (RunNotFound e) {
                throw InvalidRequest.field("runId", "Field 'runId' is not a run id.");
            }
        }
        if (from == null || to == null) {
            throw InvalidRequest.because("Give 'runId', or 'from' and 'to' (ISO-8601 instants).");
        }
        Instant start = InvalidRequest.instant("from", from);
        Instant end = InvalidRequest.instant("to", to);
        if (!start.isBefore(end)) {
            throw InvalidRequest.field("from", "Field 'from' must be before 'to'.");
        }
        if (Duration.between(start, end).compareTo(MAX_RANGE) > 0) {
            throw InvalidRequest.field(
                    "to", "Fields 'from' and 'to' may be at most " + MAX_RANGE.toDays() + " days apart.");
        }
        return new EvidenceScope(null, start, end);
    }

    /** As the manifest and the audit event state it. */
    public Map<String, String> describe() {
        Map<String, String> scope = new LinkedHashMap<>();
        if (runId != null) {
            scope.put("runId", runId.toString());
        } else {
            scope.put("from", String.valueOf(from));
            scope.put("to", String.valueOf(to));
        }
        return scope;
    }
}
