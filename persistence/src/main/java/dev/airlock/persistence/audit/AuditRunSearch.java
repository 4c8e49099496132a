package dev.airlock.persistence.audit;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Answers auditors' queries over a tenant's runs with keyset paging, so that every page is an
 * index range scan (see the indexes of migration V6), and streams whole results for export
 * through a database cursor without holding them in memory.
 */
@Component
public class AuditRunSearch {

    /** The most runs one page may hold. */
    public static final int MAX_PAGE = 500;

    /**
     * Up to this many matching decisions, a decision filter starts from the decisions (their ids
     * first, then the runs); beyond it, from the tenant's runs in sort order, probing each run's
     * decisions, which finds a page quickly when matches are that common.
     */
    static final int FEW_DECISIONS = 5000;

    private static final String COLUMNS = """
            SELECT r.id, r.tenant, r.agent, r.tool, r.state, r.exit_code, r.termination, r.created_at, r.started_at, r.ended_at,
                   (SELECT a.status FROM airlock.approval_requests a WHERE a.run_id = r.id) AS approval_status,
                   (SELECT string_agg(d.approver || ':' || d.decision, ',' ORDER BY d.decided_at, d.id)
                      FROM airlock.approval_decisions d WHERE d.run_id = r.id) AS decisions
              FROM airlock.runs r
            """;

    private final NamedParameterJdbcTemplate jdbc;

    /** A search over the given database (the application's, or a benchmark's). */
    public AuditRunSearch(DataSource dataSource) {
        JdbcTemplate template = new JdbcTemplate(dataSource);
        template.setFetchSize(500);
        this.jdbc = new NamedParameterJdbcTemplate(template);
    }

    /**
     * One page of runs matching the query, and the cursor of the next page (null on the last).
     */
    @Transactional(readOnly = true)
    public Page page(RunQuery query) {
        int limit = Math.clamp(query.limit(), 1, MAX_PAGE);
        Map<String, Object> params = new LinkedHashMap<>();
        String sql = sql(query, params, fewDecisions(query), fewTextMatches(query)) + " LIMIT " + (limit + 1);
        List<RunSummary> runs = new ArrayList<>(jdbc.query(sql, params, AuditRunSearch::summary));
        RunQuery.@Nullable Cursor next = null;
        if (runs.size() > limit) {
            runs.removeLast();
            RunSummary last = runs.getLast();
            next = new RunQuery.Cursor(last.createdAt(), last.id());
        }
        return new Page(runs, next);
    }

    /** Every run matching the query (its page size ignored), one at a time, through a database cursor. */
    @Transactional(readOnly = true)
    public void forEach(RunQuery query, Consumer<RunSummary> sink) {
        Map<String, Object> params = new LinkedHashMap<>();
        jdbc.query(sql(query, params, fewDecisions(query), fewTextMatches(query)), params, rs -> {
            sink.accept(summary(rs, 0));
        });
    }

    private boolean fewDecisions(RunQuery q) {
        if (q.approver() == null && q.decision() == null) {
            return false;
        }
        Map<String, Object> params = new LinkedHashMap<>();
        Integer count = jdbc.queryForObject(
                "SELECT count(*) FROM (SELECT 1 FROM airlock.approval_decisions d WHERE " + decisionCondition(q, params)
                        + " LIMIT " + (FEW_DECISIONS + 1) + ") AS matches",
                params,
                Integer.class);
        return count != null && count <= FEW_DECISIONS;
    }

    /**
     * Whether the text matches few transcripts (then the search starts from them, through the
     * trigram index, by {@code airlock.transcript_matches}); many matches are found faster by
     * walking the runs in order and probing each one's transcripts ({@code airlock.transcript_contains}).
     */
    private boolean fewTextMatches(RunQuery q) {
        if (q.text() == null) {
            return false;
        }
        Integer count = jdbc.queryForObject(
                "SELECT count(*) FROM airlock.transcript_matches(:tenant, :text, :limit)",
                Map.of("tenant", q.tenant(), "text", pattern(q.text()), "limit", FEW_DECISIONS + 1),
                Integer.class);
        return count != null && count <= FEW_DECISIONS;
    }

    private static String pattern(String text) {
        return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    private static String decisionCondition(RunQuery q, Map<String, Object> params) {
        StringBuilder condition = new StringBuilder("true");
        if (q.approver() != null) {
            condition.append(" AND d.approver = :approver");
            params.put("approver", q.approver());
        }
        if (q.decision() != null) {
            condition.append(" AND d.decision = :decision");
            params.put("decision", q.decision());
        }
        return condition.toString();
    }

    private static String sql(RunQuery q, Map<String, Object> params, boolean fewDecisions, boolean fewTextMatches) {
        StringBuilder where = new StringBuilder(" WHERE r.tenant = :tenant");
        params.put("tenant", q.tenant());
        if (q.from() != null) {
            where.append(" AND r.created_at >= :from");
            params.put("from", Timestamp.from(q.from()));
        }
        if (q.to() != null) {
            where.append(" AND r.created_at < :to");
            params.put("to", Timestamp.from(q.to()));
        }
        equal(where, params, "agent", q.agent());
        equal(where, params, "tool", q.tool());
        equal(where, params, "state", q.state());
        equal(where, params, "termination", q.termination());
        if (q.exitCode() != null) {
            where.append(" AND r.exit_code = :exitCode");
            params.put("exitCode", q.exitCode());
        }
        String with = "";
        if (fewDecisions) {
            with = "WITH decided AS MATERIALIZED (SELECT DISTINCT d.run_id FROM airlock.approval_decisions d WHERE "
                    + decisionCondition(q, params) + ") ";
            where.append(" AND r.id IN (SELECT run_id FROM decided)");
        } else if (q.approver() != null || q.decision() != null) {
            where.append(" AND EXISTS (SELECT 1 FROM airlock.approval_decisions d WHERE d.run_id = r.id AND ")
                    .append(decisionCondition(q, params))
                    .append(')');
        }
        if (fewTextMatches) {
            where.append(" AND r.id IN (SELECT m FROM airlock.transcript_matches(:tenant, :text, :textLimit) m)");
            params.put(
                    "text", pattern(Objects.requireNonNull(q.text(), "few text matches are counted only for a text")));
            params.put("textLimit", FEW_DECISIONS + 1);
        } else if (q.text() != null) {
            where.append(" AND airlock.transcript_contains(r.id, :text)");
            params.put("text", pattern(q.text()));
        }
        String direction = q.oldestFirst() ? "ASC" : "DESC";
        if (q.after() != null) {
            where.append(
                    q.oldestFirst()
                            ? " AND (r.created_at, r.id) > (:afterAt, :afterId)"
                            : " AND (r.created_at, r.id) < (:afterAt, :afterId)");
            params.put("afterAt", Timestamp.from(q.after().createdAt()));
            params.put("afterId", q.after().id());
        }
        return with + COLUMNS + where + " ORDER BY r.created_at " + direction + ", r.id " + direction;
    }

    private static void equal(StringBuilder where, Map<String, Object> params, String column, @Nullable String value) {
        if (value != null) {
            where.append(" AND r.").append(column).append(" = :").append(column);
            params.put(column, value);
        }
    }

    private static RunSummary summary(ResultSet rs, int n) throws SQLException {
        int exit = rs.getInt("exit_code");
        Integer exitCode = rs.wasNull() ? null : exit;
        return new RunSummary(
                rs.getObject("id", UUID.class),
                rs.getString("tenant"),
                rs.getString("agent"),
                rs.getString("tool"),
                rs.getString("state"),
                rs.getString("approval_status"),
                rs.getString("decisions") == null ? "" : rs.getString("decisions"),
                exitCode,
                rs.getString("termination"),
                Objects.requireNonNull(instant(rs, "created_at"), "created_at is NOT NULL"),
                instant(rs, "started_at"),
                instant(rs, "ended_at"));
    }

    private static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    /**
     * One page of results.
     *
     * @param runs the runs
     * @param next the cursor of the next page, or null when this is the last
     */
    public record Page(List<RunSummary> runs, RunQuery.@Nullable Cursor next) {}
}
