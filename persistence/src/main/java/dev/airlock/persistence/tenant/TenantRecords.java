package dev.airlock.persistence.tenant;

import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Records the configured tenants, agents and tool definitions, so that runs reference rows that
 * say who and what they were. Configuration stays the source of truth: this only adds.
 */
@Component
public class TenantRecords {

    private final JdbcClient jdbc;
    private final AuditLog audit;

    TenantRecords(JdbcClient jdbc, AuditLog audit) {
        this.jdbc = jdbc;
        this.audit = audit;
    }

    /**
     * Records the digest of a tenant's configuration and, when it differs from the one recorded
     * before (or none was), appends a {@code config.changed} audit event naming both digests and
     * the given description of the new configuration. Returns whether it changed.
     */
    @Transactional
    public boolean recordConfiguration(String tenant, String sha256, Map<String, String> description, Instant now) {
        ensureTenant(tenant);
        String previous = jdbc.sql("SELECT config_sha256 FROM airlock.tenants WHERE name = :name FOR UPDATE")
                .param("name", tenant)
                .query(String.class)
                .optional()
                .orElse(null);
        if (sha256.equals(previous)) {
            return false;
        }
        jdbc.sql("UPDATE airlock.tenants SET config_sha256 = :sha, config_changed_at = :now WHERE name = :name")
                .param("sha", sha256)
                .param("now", Timestamp.from(now))
                .param("name", tenant)
                .update();
        Map<String, String> details = new TreeMap<>(description);
        details.put("previous", previous == null ? "" : previous);
        details.put("current", sha256);
        audit.append(tenant, AuditEventType.CONFIG_CHANGED, null, "airlock", details, now);
        return true;
    }

    /** Records a tenant if it is new. */
    @Transactional
    public void ensureTenant(String tenant) {
        jdbc.sql("INSERT INTO airlock.tenants (name) VALUES (:name) ON CONFLICT DO NOTHING")
                .param("name", tenant)
                .update();
    }

    /** Records an agent, or its new key hash. */
    @Transactional
    public void ensureAgent(String tenant, String agent, String keySha256) {
        jdbc.sql("""
                INSERT INTO airlock.agents (tenant, name, key_sha256) VALUES (:tenant, :name, :key)
                ON CONFLICT (tenant, name) DO UPDATE SET key_sha256 = EXCLUDED.key_sha256
                """)
                .param("tenant", tenant)
                .param("name", agent)
                .param("key", keySha256)
                .update();
    }

    /** The id of the snapshot of this exact tool definition, recorded now if it is new. */
    @Transactional
    public long snapshotTool(String tenant, String tool, String definitionJson, String sha256) {
        jdbc.sql("""
                INSERT INTO airlock.tool_snapshots (tenant, tool, sha256, definition)
                VALUES (:tenant, :tool, :sha, :definition) ON CONFLICT DO NOTHING
                """)
                .param("tenant", tenant)
                .param("tool", tool)
                .param("sha", sha256)
                .param("definition", definitionJson)
                .update();
        return jdbc.sql(
                        "SELECT id FROM airlock.tool_snapshots WHERE tenant = :tenant AND tool = :tool AND sha256 = :sha")
                .param("tenant", tenant)
                .param("tool", tool)
                .param("sha", sha256)
                .query(Long.class)
                .single();
    }

    /** The definition recorded under a snapshot id, within its tenant. */
    @Transactional(readOnly = true)
    public Optional<String> toolDefinition(String tenant, long snapshotId) {
        return jdbc.sql("SELECT definition FROM airlock.tool_snapshots WHERE id = :id AND tenant = :tenant")
                .param("id", snapshotId)
                .param("tenant", tenant)
                .query(String.class)
                .optional();
    }
}
