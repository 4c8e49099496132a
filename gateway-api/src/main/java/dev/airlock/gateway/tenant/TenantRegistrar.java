package dev.airlock.gateway.tenant;

import dev.airlock.gateway.config.AirlockProperties;
import dev.airlock.gateway.support.Sha256;
import dev.airlock.gateway.tool.Tool;
import dev.airlock.gateway.tool.ToolCatalog;
import dev.airlock.persistence.tenant.TenantRecords;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records the configured tenants, agents and tool definitions before the gateway takes requests,
 * so that every run points at the exact tool definition it was requested under.
 */
@Component
public class TenantRegistrar implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(TenantRegistrar.class);

    private final AirlockProperties properties;
    private final AgentDirectory agents;
    private final ToolCatalog tools;
    private final TenantRecords records;
    private final JsonMapper json;
    private final Map<String, Long> snapshotIds = new ConcurrentHashMap<>();

    TenantRegistrar(AirlockProperties properties, AgentDirectory agents, ToolCatalog tools, TenantRecords records,
            JsonMapper json) {
        this.properties = properties;
        this.agents = agents;
        this.tools = tools;
        this.records = records;
        this.json = json;
    }

    @Override
    public void afterSingletonsInstantiated() {
        properties.tenants().keySet().forEach(records::ensureTenant);
        agents.agentsByKeyHash().forEach((hash, agent) -> records.ensureAgent(agent.tenant(), agent.agent(), hash));
        for (Tool tool : tools.all()) {
            String definition = json.writeValueAsString(tool.snapshot());
            snapshotIds.put(key(tool), records.snapshotTool(tool.tenant(), tool.name(), definition, Sha256.hex(definition)));
        }
        log.info("Airlock serves {} tenant(s), {} agent(s), {} tool(s)", properties.tenants().size(),
                agents.agentsByKeyHash().size(), tools.all().size());
    }

    /** The id of the recorded definition of {@code tool}. */
    public long snapshotId(Tool tool) {
        Long id = snapshotIds.get(key(tool));
        if (id == null) {
            throw new IllegalStateException("tool " + key(tool) + " was not recorded at start-up");
        }
        return id;
    }

    private static String key(Tool tool) {
        return tool.tenant() + "/" + tool.name();
    }
}
