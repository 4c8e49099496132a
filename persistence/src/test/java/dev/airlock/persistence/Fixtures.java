package dev.airlock.persistence;

import dev.airlock.persistence.run.RunState;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Rows for the tests, written with plain SQL. Each test works in a tenant of its own, so that
 * tests sharing the database never see each other's runs, events or purges.
 */
public final class Fixtures {

    private final JdbcClient jdbc;

    public Fixtures(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A new tenant with one tool definition. */
    public String tenant() {
        String tenant = "t-" + UUID.randomUUID().toString().substring(0, 8);
        jdbc.sql("INSERT INTO airlock.tenants (name) VALUES (:name)")
                .param("name", tenant)
                .update();
        jdbc.sql(
                        "INSERT INTO airlock.tool_snapshots (tenant, tool, sha256, definition) VALUES (:tenant, 'echo', 'sha', '{}')")
                .param("tenant", tenant)
                .update();
        return tenant;
    }

    /** The id of the tenant's tool definition. */
    public long toolSnapshot(String tenant) {
        return jdbc.sql("SELECT id FROM airlock.tool_snapshots WHERE tenant = :tenant")
                .param("tenant", tenant)
                .query(Long.class)
                .single();
    }

    /** A run of the tenant in {@code state}, requested at {@code createdAt}. */
    public UUID run(String tenant, RunState state, Instant createdAt) {
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                INSERT INTO airlock.runs (id, tenant, agent, tool, tool_snapshot_id, arguments, argv, request_sha256, state,
                                          approval_required, created_at, updated_at)
                VALUES (:id, :tenant, 'bot', 'echo', :snapshot, '{}', '["echo"]', 'sha', :state, false, :at, :at)
                """)
                .param("id", id)
                .param("tenant", tenant)
                .param("snapshot", toolSnapshot(tenant))
                .param("state", state.name())
                .param("at", Timestamp.from(createdAt))
                .update();
        return id;
    }

    /** The run's state as stored. */
    public String state(UUID runId) {
        return jdbc.sql("SELECT state FROM airlock.runs WHERE id = :id")
                .param("id", runId)
                .query(String.class)
                .single();
    }

    /** The run's version as stored (optimistic locking). */
    public long version(UUID runId) {
        return jdbc.sql("SELECT version FROM airlock.runs WHERE id = :id")
                .param("id", runId)
                .query(Long.class)
                .single();
    }

    /** Whether the run's row is still there. */
    public boolean exists(UUID runId) {
        return jdbc.sql("SELECT count(*) > 0 FROM airlock.runs WHERE id = :id")
                .param("id", runId)
                .query(Boolean.class)
                .single();
    }

    /** How many rows of {@code table} have {@code run_id = runId}. */
    public int count(String table, UUID runId) {
        return jdbc.sql("SELECT count(*) FROM " + table + " WHERE run_id = :run")
                .param("run", runId)
                .query(Integer.class)
                .single();
    }
}
