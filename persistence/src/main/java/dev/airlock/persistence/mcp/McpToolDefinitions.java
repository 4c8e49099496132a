package dev.airlock.persistence.mcp;

import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Every definition of an upstream MCP server's tool Airlock has seen, by the SHA-256 of its
 * canonical form, and whether people let it be offered (docs/mcp-upstreams.md). The agent side
 * records definitions; only a tenant administrator decides a held one. Each change is an audit event.
 */
@Component
public class McpToolDefinitions {

    private final JdbcClient jdbc;
    private final AuditLog audit;

    McpToolDefinitions(JdbcClient jdbc, AuditLog audit) {
        this.jdbc = jdbc;
        this.audit = audit;
    }

    /** Whether a definition may be offered. */
    public enum Status {
        /** Offered: seen in the server's first listing, or approved by a person. */
        APPROVED,
        /** Held until a tenant administrator decides. */
        PENDING,
        /** Never offered. */
        REJECTED
    }

    /**
     * One definition of one tool.
     *
     * @param tenant     the tenant
     * @param server     the tenant's MCP server
     * @param tool       the tool's name on that server
     * @param sha256     SHA-256 of its canonical definition
     * @param definition its canonical definition (JSON, as the server sent it: untrusted)
     * @param status     whether it may be offered
     * @param firstSeen  when Airlock first saw it
     * @param decidedBy  who decided, {@code airlock} for a first listing; null while pending
     * @param decidedAt  when; null while pending
     */
    public record Definition(
            String tenant,
            String server,
            String tool,
            String sha256,
            String definition,
            Status status,
            Instant firstSeen,
            @Nullable String decidedBy,
            @Nullable Instant decidedAt) {}

    /** Whether any definition of {@code tenant}'s server {@code server} was ever recorded. */
    @Transactional(readOnly = true)
    public boolean known(String tenant, String server) {
        return jdbc.sql(
                        "SELECT count(*) > 0 FROM airlock.mcp_tool_definitions WHERE tenant = :tenant AND server = :server")
                .param("tenant", tenant)
                .param("server", server)
                .query(Boolean.class)
                .single();
    }

    /** The name a server's listing marker is recorded under: no tool has it (MCP tool names are not empty). */
    static final String LISTED = "";

    /**
     * Records that {@code tenant}'s server {@code server} was listed: from then on, every definition not seen
     * before is held, even if its first listing offered nothing.
     */
    @Transactional
    public void markListed(String tenant, String server, Instant now) {
        jdbc.sql("""
                INSERT INTO airlock.mcp_tool_definitions
                    (tenant, server, tool, sha256, definition, status, first_seen, decided_by, decided_at)
                VALUES (:tenant, :server, '', :sha256, '{}', 'APPROVED', :now, 'airlock', :now)
                ON CONFLICT (tenant, server, tool, sha256) DO NOTHING
                """)
                .param("tenant", tenant)
                .param("server", server)
                .param("sha256", dev.airlock.kernel.digest.Sha256.hex(""))
                .param("now", Timestamp.from(now))
                .update();
    }

    /** The status of each recorded definition of the server's tools, by tool, then by SHA-256. */
    @Transactional(readOnly = true)
    public Map<String, Map<String, Status>> statuses(String tenant, String server) {
        Map<String, Map<String, Status>> statuses = new java.util.TreeMap<>();
        jdbc.sql(
                        "SELECT tool, sha256, status FROM airlock.mcp_tool_definitions WHERE tenant = :tenant AND server = :server")
                .param("tenant", tenant)
                .param("server", server)
                .query((rs, n) -> {
                    statuses.computeIfAbsent(rs.getString("tool"), t -> new java.util.TreeMap<>())
                            .put(rs.getString("sha256"), Status.valueOf(rs.getString("status")));
                    return n;
                })
                .list();
        return statuses;
    }

    /**
     * Records a definition seen in a listing, unless it is recorded already: APPROVED by
     * {@code airlock} when it is part of the server's first listing, PENDING otherwise.
     *
     * @return its status now
     */
    @Transactional
    public Status record(
            String tenant,
            String server,
            String tool,
            String sha256,
            String definition,
            boolean firstListing,
            Instant now) {
        Status status = firstListing ? Status.APPROVED : Status.PENDING;
        if (!firstListing && (pendingOf(tenant, server, tool) || pendingCount(tenant, server) >= MAX_PENDING)) {
            // One held definition per tool, and at most MAX_PENDING per server: a server that keeps
            // changing a tool, or lists new names by the thousand, cannot fill the table (or the
            // console); the next is recorded once people decided on those held. Held either way.
            return Status.PENDING;
        }
        int inserted = jdbc.sql("""
                INSERT INTO airlock.mcp_tool_definitions
                    (tenant, server, tool, sha256, definition, status, first_seen, decided_by, decided_at)
                VALUES (:tenant, :server, :tool, :sha256, :definition, :status, :now, :by, :at)
                ON CONFLICT (tenant, server, tool, sha256) DO NOTHING
                """)
                .param("tenant", tenant)
                .param("server", server)
                .param("tool", tool)
                .param("sha256", sha256)
                .param("definition", definition)
                .param("status", status.name())
                .param("now", Timestamp.from(now))
                .param("by", firstListing ? "airlock" : null)
                .param("at", firstListing ? Timestamp.from(now) : null)
                .update();
        if (inserted == 1) {
            audit.append(
                    tenant,
                    firstListing ? AuditEventType.MCP_TOOL_PINNED : AuditEventType.MCP_TOOL_CHANGED,
                    null,
                    "airlock",
                    Map.of("server", server, "tool", tool, "sha256", sha256),
                    now);
            return status;
        }
        return find(tenant, server, tool, sha256).map(Definition::status).orElse(Status.PENDING);
    }

    /** The most definitions of one server held for people's decision at once. */
    public static final int MAX_PENDING = 100;

    private int pendingCount(String tenant, String server) {
        return jdbc.sql("""
                SELECT count(*) FROM airlock.mcp_tool_definitions
                WHERE tenant = :tenant AND server = :server AND status = 'PENDING'
                """)
                .param("tenant", tenant)
                .param("server", server)
                .query(Integer.class)
                .single();
    }

    private boolean pendingOf(String tenant, String server, String tool) {
        return jdbc.sql("""
                SELECT count(*) > 0 FROM airlock.mcp_tool_definitions
                WHERE tenant = :tenant AND server = :server AND tool = :tool AND status = 'PENDING'
                """)
                .param("tenant", tenant)
                .param("server", server)
                .param("tool", tool)
                .query(Boolean.class)
                .single();
    }

    /** One recorded definition. */
    @Transactional(readOnly = true)
    public Optional<Definition> find(String tenant, String server, String tool, String sha256) {
        return jdbc.sql("""
                SELECT * FROM airlock.mcp_tool_definitions
                WHERE tenant = :tenant AND server = :server AND tool = :tool AND sha256 = :sha256
                """)
                .param("tenant", tenant)
                .param("server", server)
                .param("tool", tool)
                .param("sha256", sha256)
                .query(McpToolDefinitions::definition)
                .optional();
    }

    /** The most held definitions one page shows. */
    public static final int PAGE = 200;

    /** The definitions of {@code tenants} waiting for a decision, oldest first, at most {@link #PAGE}. */
    @Transactional(readOnly = true)
    public List<Definition> pending(Collection<String> tenants) {
        if (tenants.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                SELECT * FROM airlock.mcp_tool_definitions
                WHERE status = 'PENDING' AND tenant IN (:tenants) ORDER BY first_seen, tenant, server, tool
                LIMIT :page
                """)
                .param("page", PAGE)
                .param("tenants", tenants)
                .query(McpToolDefinitions::definition)
                .list();
    }

    /**
     * The definition the tool was last offered under before {@code sha256} (the newest approved
     * other one), to show beside a held change; empty for a new tool.
     */
    @Transactional(readOnly = true)
    public Optional<Definition> previous(String tenant, String server, String tool, String sha256) {
        return jdbc.sql("""
                SELECT * FROM airlock.mcp_tool_definitions
                WHERE tenant = :tenant AND server = :server AND tool = :tool AND sha256 <> :sha256
                  AND status = 'APPROVED' ORDER BY decided_at DESC LIMIT 1
                """)
                .param("tenant", tenant)
                .param("server", server)
                .param("tool", tool)
                .param("sha256", sha256)
                .query(McpToolDefinitions::definition)
                .optional();
    }

    /**
     * Decides a held definition; false when it is not held (any more).
     *
     * @param approve whether it may be offered from now on
     */
    @Transactional
    public boolean decide(
            String tenant, String server, String tool, String sha256, boolean approve, String by, Instant now) {
        int updated = jdbc.sql("""
                UPDATE airlock.mcp_tool_definitions SET status = :status, decided_by = :by, decided_at = :now
                WHERE tenant = :tenant AND server = :server AND tool = :tool AND sha256 = :sha256 AND status = 'PENDING'
                """)
                .param("status", approve ? Status.APPROVED.name() : Status.REJECTED.name())
                .param("by", by)
                .param("now", Timestamp.from(now))
                .param("tenant", tenant)
                .param("server", server)
                .param("tool", tool)
                .param("sha256", sha256)
                .update();
        if (updated == 1) {
            audit.append(
                    tenant,
                    approve ? AuditEventType.MCP_TOOL_APPROVED : AuditEventType.MCP_TOOL_REJECTED,
                    null,
                    by,
                    Map.of("server", server, "tool", tool, "sha256", sha256),
                    now);
        }
        return updated == 1;
    }

    private static Definition definition(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        Timestamp decided = rs.getTimestamp("decided_at");
        return new Definition(
                rs.getString("tenant"),
                rs.getString("server"),
                rs.getString("tool"),
                rs.getString("sha256"),
                rs.getString("definition"),
                Status.valueOf(rs.getString("status")),
                rs.getTimestamp("first_seen").toInstant(),
                rs.getString("decided_by"),
                decided == null ? null : decided.toInstant());
    }
}
