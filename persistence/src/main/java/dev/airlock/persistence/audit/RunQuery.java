package dev.airlock.persistence.audit;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An auditor's question about a tenant's runs. Every filter is optional except the tenant;
 * results come newest (or oldest) first by request time, a page at a time.
 *
 * @param tenant      the tenant, always
 * @param from        runs requested at or after this instant
 * @param to          runs requested before this instant
 * @param agent       the requesting agent
 * @param tool        the tool
 * @param state       the run's state name
 * @param approver    someone who decided on the run's approval
 * @param decision    APPROVE or DENY: a decision of this kind (by {@code approver}, when given)
 * @param exitCode    the process exit code
 * @param termination how the process ended (termination name)
 * @param text        a case-insensitive substring of the sanitized transcript (3 characters or more)
 * @param oldestFirst sort oldest first instead of newest first
 * @param limit       the page size
 * @param after       where the previous page ended, or null for the first page
 */
public record RunQuery(
        String tenant,
        @Nullable Instant from,
        @Nullable Instant to,
        @Nullable String agent,
        @Nullable String tool,
        @Nullable String state,
        @Nullable String approver,
        @Nullable String decision,
        @Nullable Integer exitCode,
        @Nullable String termination,
        @Nullable String text,
        boolean oldestFirst,
        int limit,
        @Nullable Cursor after) {

    /** The same question, continued after {@code cursor}. */
    public RunQuery after(Cursor cursor) {
        return new RunQuery(
                tenant,
                from,
                to,
                agent,
                tool,
                state,
                approver,
                decision,
                exitCode,
                termination,
                text,
                oldestFirst,
                limit,
                cursor);
    }

    /**
     * Where a page ended: the sort key of its last run.
     *
     * @param createdAt the run's request time
     * @param id        the run's id, which breaks ties
     */
    public record Cursor(Instant createdAt, UUID id) {

        /** An opaque, URL-safe token. */
        public String encode() {
            long micros = ChronoUnit.MICROS.between(Instant.EPOCH, createdAt);
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString((micros + "/" + id).getBytes(StandardCharsets.US_ASCII));
        }

        /** The cursor a token stands for; IllegalArgumentException if it is not one. */
        public static Cursor decode(String token) {
            String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.US_ASCII);
            int slash = text.indexOf('/');
            if (slash < 0) {
                throw new IllegalArgumentException("not a cursor");
            }
            long micros = Long.parseLong(text.substring(0, slash));
            // Within the years 1 to 9999, as every time a request may name (the database refuses
            // times far outside them, and the sum below must not overflow).
            if (micros < -62_135_596_800_000_000L || micros >= 253_402_300_800_000_000L) {
                throw new IllegalArgumentException("not a cursor");
            }
            return new Cursor(
                    Instant.EPOCH.plus(micros, ChronoUnit.MICROS), UUID.fromString(text.substring(slash + 1)));
        }
    }
}
