package dev.airlock.approval.audit;

import dev.airlock.approval.people.Human;
import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.persistence.audit.AuditRunSearch;
import dev.airlock.persistence.audit.RunQuery;
import dev.airlock.persistence.audit.RunSummary;
import dev.airlock.persistence.run.RunState;
import dev.airlock.persistence.run.Termination;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Auditors' queries over runs: checks a {@link RunSearchForm} and the person's role, pages
 * through the results, and exports whole results as CSV or JSON Lines as they stream from the
 * database.
 */
@Component
public class AuditQueries {

    /** The page size when none is asked for. */
    public static final int DEFAULT_LIMIT = 50;

    /** The columns of a CSV export, in order. */
    public static final List<String> CSV_COLUMNS = List.of(
            "run_id",
            "tenant",
            "agent",
            "tool",
            "state",
            "approval_status",
            "decisions",
            "exit_code",
            "termination",
            "requested_at",
            "started_at",
            "ended_at");

    /** The first characters that make a spreadsheet read a cell as a formula. */
    private static final String FORMULA_STARTS = "=+-@\t\r";

    private final AuditRunSearch search;
    private final AuditAccess access;
    private final JsonMapper json;

    AuditQueries(AuditRunSearch search, AuditAccess access, JsonMapper json) {
        this.search = search;
        this.access = access;
        this.json = json;
    }

    /** One page of results for an auditor of the form's tenant. */
    public AuditRunSearch.Page page(Human human, RunSearchForm form) {
        return search.page(query(human, form));
    }

    /** Writes every result of a checked query ({@link #query}) as CSV (RFC 4180, with a header line) while reading it. */
    public void exportCsv(RunQuery query, Writer out) {
        write(out, String.join(",", CSV_COLUMNS) + "\r\n");
        search.forEach(query, lines(out, run -> csv(run) + "\r\n"));
        flush(out);
    }

    /** Writes every result of a checked query ({@link #query}) as JSON Lines while reading it. */
    public void exportJsonLines(RunQuery query, Writer out) {
        search.forEach(query, lines(out, run -> json.writeValueAsString(run) + "\n"));
        flush(out);
    }

    /** Checks the form and the person's role and turns the form into a query. */
    public RunQuery query(Human human, RunSearchForm form) {
        if (form.tenant() == null || form.tenant().isBlank()) {
            throw InvalidRequest.field("tenant", "tenant is required");
        }
        access.requireAuditor(human, form.tenant());
        String text = filter("q", form.q());
        if (text != null && (text.length() < 3 || text.length() > 200)) {
            throw InvalidRequest.field("q", "q must be 3 to 200 characters long");
        }
        int limit = form.limit() == null ? DEFAULT_LIMIT : form.limit();
        if (limit < 1 || limit > AuditRunSearch.MAX_PAGE) {
            throw InvalidRequest.field("limit", "limit must be between 1 and " + AuditRunSearch.MAX_PAGE);
        }
        String sort = blankToNull(form.sort());
        if (sort != null && !sort.equals("newest") && !sort.equals("oldest")) {
            throw InvalidRequest.field("sort", "sort must be newest or oldest");
        }
        RunQuery.@Nullable Cursor cursor = null;
        String token = filter("cursor", form.cursor());
        if (token != null) {
            try {
                cursor = RunQuery.Cursor.decode(token);
            } catch (IllegalArgumentException e) {
                throw InvalidRequest.field("cursor", "cursor is not one this API returned");
            }
        }
        return new RunQuery(
                form.tenant(),
                instant("from", form.from()),
                instant("to", form.to()),
                filter("agent", form.agent()),
                filter("tool", form.tool()),
                oneOf("state", form.state(), names(RunState.values())),
                filter("approver", form.approver()),
                oneOf("decision", form.decision(), List.of("APPROVE", "DENY")),
                form.exitCode(),
                oneOf("termination", form.termination(), names(Termination.values())),
                text,
                "oldest".equals(sort),
                limit,
                cursor);
    }

    private Consumer<RunSummary> lines(Writer out, java.util.function.Function<RunSummary, String> line) {
        int[] count = {0};
        return run -> {
            write(out, line.apply(run));
            if (++count[0] % 1000 == 0) {
                flush(out);
            }
        };
    }

    static String csv(RunSummary run) {
        List<@Nullable String> cells = new ArrayList<>(CSV_COLUMNS.size());
        cells.add(run.id().toString());
        cells.add(run.tenant());
        cells.add(run.agent());
        cells.add(run.tool());
        cells.add(run.state());
        cells.add(run.approvalStatus());
        cells.add(run.decisions());
        cells.add(run.exitCode() == null ? null : run.exitCode().toString());
        cells.add(run.termination());
        cells.add(string(run.createdAt()));
        cells.add(string(run.startedAt()));
        cells.add(string(run.endedAt()));
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            line.append(cell(cells.get(i)));
        }
        return line.toString();
    }

    /**
     * One CSV cell: quoted when needed, and a text that a spreadsheet would take for a formula is
     * prefixed with {@code '}: one starting with {@code =}, {@code +}, {@code -}, {@code @}, tab or
     * carriage return, the characters OWASP's CSV injection guidance lists.
     */
    static String cell(@Nullable String value) {
        if (value == null) {
            return "";
        }
        String text = !value.isEmpty() && FORMULA_STARTS.indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        if (text.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r')) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }

    private static @Nullable String string(@Nullable Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static @Nullable Instant instant(String name, @Nullable String value) {
        String text = blankToNull(value);
        return text == null ? null : InvalidRequest.instant(name, text);
    }

    /**
     * A text filter, or null when blank; a control character (which no name holds, and NUL the
     * database cannot even compare) is a 400 naming the filter.
     */
    private static @Nullable String filter(String name, @Nullable String value) {
        String text = blankToNull(value);
        if (text != null
                && (text.chars().anyMatch(Character::isISOControl)
                        || dev.airlock.approval.input.HumanText.firstNotAccepted(text) >= 0)) {
            throw InvalidRequest.field(name, name + " must not contain control characters or half of a surrogate pair");
        }
        return text;
    }

    private static @Nullable String oneOf(String name, @Nullable String value, List<String> allowed) {
        String text = blankToNull(value);
        if (text == null) {
            return null;
        }
        String upper = text.strip().toUpperCase(Locale.ROOT);
        if (!allowed.contains(upper)) {
            throw InvalidRequest.field(name, name + " must be one of " + String.join(", ", allowed));
        }
        return upper;
    }

    private static List<String> names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).toList();
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value;
    }

    private static void write(Writer out, String text) {
        try {
            out.write(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void flush(Writer out) {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
