package dev.airlock.gateway.tool;

import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.persistence.support.Sha256;
import dev.airlock.persistence.tenant.TenantRecords;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * Writes a {@code config.changed} audit event for each tenant whose configuration differs from
 * the one the gateway last started with (and for each tenant's first configuration). The event
 * names the digests of both and describes the new one: each tool with the digest of its
 * definition, the agents with the digest of their key, the tenant's policies, and the number and digest of its webhook URLs. Secret values
 * are never part of the configuration, so never part of the event.
 */
@Component
class ConfigurationAudit implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(ConfigurationAudit.class);

    private final dev.airlock.persistence.scope.Scopes scopes;
    private final AirlockProperties properties;
    private final ToolCatalog tools;
    private final ToolSnapshots snapshots;
    private final TenantRecords records;
    private final Clock clock;

    ConfigurationAudit(AirlockProperties properties, ToolCatalog tools, ToolSnapshots snapshots, TenantRecords records,
            Clock clock,
            dev.airlock.persistence.scope.Scopes scopes) {
        this.scopes = scopes;
        this.properties = properties;
        this.tools = tools;
        this.snapshots = snapshots;
        this.records = records;
        this.clock = clock;
    }

    @Override
    public void afterSingletonsInstantiated() {
        scopes.eitherSide().run(this::recordAll);
    }

    private void recordAll() {
        properties.tenants().forEach((tenant, config) -> {
            Map<String, String> description = describe(tenant, config);
            String digest = Sha256.hex(description.toString());
            if (records.recordConfiguration(tenant, digest, description, clock.instant())) {
                log.info("Configuration of tenant {} changed (now {}); recorded in its audit log", tenant, digest);
            }
        });
    }

    Map<String, String> describe(String tenant, AirlockProperties.Tenant config) {
        Map<String, String> description = new TreeMap<>();
        description.put("tools", tools.all().stream().filter(t -> t.tenant().equals(tenant))
                .map(t -> t.name() + "=" + snapshots.sha256(t)).sorted().collect(Collectors.joining(",")));
        description.put("agents", new TreeMap<>(config.agents()).entrySet().stream()
                .map(a -> a.getKey() + "=" + a.getValue().keySha256() + (a.getValue().owner() == null ? "" : "/" + a.getValue().owner()))
                .collect(Collectors.joining(",")));
        description.put("limits", config.limits().toString());
        description.put("retention", config.retention().toString());
        description.put("rawAccess", config.rawAccess().toString());
        // Webhook URLs may carry tokens: only their number and digest are recorded.
        var webhooks = config.notifications().webhooks();
        description.put("webhooks", webhooks.size() + (webhooks.isEmpty() ? "" : "/" + Sha256.hex(webhooks.toString())));
        return description;
    }
}
