package dev.airlock.gateway.tool;

import dev.airlock.kernel.digest.Sha256;
import dev.airlock.persistence.tenant.TenantRecords;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records every configured tool definition before the gateway takes requests, so that each run
 * points at the exact definition it was requested under (and executes that one).
 */
@Component
public class ToolSnapshots implements SmartInitializingSingleton {

    private final ToolCatalog tools;
    private final TenantRecords records;
    private final JsonMapper json;
    private final Map<String, Long> ids = new ConcurrentHashMap<>();
    /** The definitions recorded at start-up, by id, with their tenant. */
    private final Map<Long, Map.Entry<String, ToolSnapshot>> definitions = new ConcurrentHashMap<>();

    private final Map<String, String> digests = new ConcurrentHashMap<>();

    private final dev.airlock.persistence.scope.Scopes scopes;

    ToolSnapshots(
            ToolCatalog tools, TenantRecords records, JsonMapper json, dev.airlock.persistence.scope.Scopes scopes) {
        this.scopes = scopes;
        this.tools = tools;
        this.records = records;
        this.json = json;
    }

    @Override
    public void afterSingletonsInstantiated() {
        scopes.eitherSide().run(this::recordAll);
    }

    private void recordAll() {
        for (Tool tool : tools.all()) {
            record(tool);
        }
    }

    private long record(Tool tool) {
        {
            String definition = json.writeValueAsString(tool.snapshot());
            String digest = digests.computeIfAbsent(key(tool), k -> Sha256.hex(definition));
            records.ensureTenant(tool.tenant());
            long id = records.snapshotTool(tool.tenant(), tool.name(), definition, digest);
            ids.put(key(tool), id);
            definitions.put(id, Map.entry(tool.tenant(), tool.snapshot()));
            return id;
        }
    }

    /** The SHA-256 of the tool's definition as it is recorded, computed once per tool. */
    public String sha256(Tool tool) {
        return digests.computeIfAbsent(key(tool), k -> Sha256.hex(json.writeValueAsString(tool.snapshot())));
    }

    /** The id of the recorded definition of {@code tool}. */
    public long id(Tool tool) {
        Long id = ids.get(key(tool));
        if (id == null && tool.mcp() != null) {
            // An upstream MCP server's tool, offered since start-up: recorded as it is first used.
            return record(tool);
        }
        if (id == null) {
            throw new IllegalStateException("tool " + key(tool) + " was not recorded at start-up");
        }
        return id;
    }

    /**
     * The definition recorded under {@code id} in {@code tenant}: the current ones from memory,
     * older ones (still referenced by waiting runs) from the database.
     */
    public ToolSnapshot definition(String tenant, long id) {
        Map.Entry<String, ToolSnapshot> known = definitions.get(id);
        if (known != null && known.getKey().equals(tenant)) {
            return known.getValue();
        }
        // Not this tenant's, or recorded by another replica: read it in the tenant (which a run of
        // another tenant's definition never finds).
        String stored = records.toolDefinition(tenant, id)
                .orElseThrow(() -> new IllegalStateException("no tool snapshot " + id + " in tenant " + tenant));
        return json.readValue(stored, ToolSnapshot.class);
    }

    /** A tool's key: an upstream MCP server's tool has one per pinned definition it was offered under. */
    private static String key(Tool tool) {
        McpTarget mcp = tool.mcp();
        return tool.tenant() + "/" + tool.name() + (mcp == null ? "" : "#" + mcp.definitionSha256());
    }
}
