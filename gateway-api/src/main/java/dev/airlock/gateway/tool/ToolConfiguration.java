package dev.airlock.gateway.tool;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.TenantDescriber;
import dev.airlock.kernel.config.TenantNames;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/** Compiles the configured tools once, at start-up. */
@Configuration(proxyBeanMethods = false)
class ToolConfiguration {

    @Bean
    ToolCatalog toolCatalog(
            AirlockProperties shared, AgentSettings settings, TenantNames tenants, Environment environment) {
        return ToolCompiler.compile(shared, settings, tenants, ConfiguredFiles.of(environment));
    }

    /** The agent side's part of each tenant's configuration, for its audit event: tools by digest, agents, limits. */
    @Bean
    TenantDescriber agentSideDescriber(
            AirlockProperties shared, AgentSettings settings, ToolCatalog tools, ToolSnapshots snapshots) {
        return tenant -> {
            Map<String, String> description = new TreeMap<>();
            description.put(
                    "tools",
                    tools.tools(tenant).stream()
                            .map(t -> t.name() + "=" + snapshots.sha256(t))
                            .sorted()
                            .collect(Collectors.joining(",")));
            description.put(
                    "agents",
                    new TreeMap<>(shared.agents(tenant))
                            .entrySet().stream()
                                    .map(a -> a.getKey() + "=" + a.getValue().keySha256()
                                            + (a.getValue().owner() == null
                                                    ? ""
                                                    : "/" + a.getValue().owner()) + "/"
                                            + a.getValue().runs())
                                    .collect(Collectors.joining(",")));
            description.put("limits", settings.tenant(tenant).limits().toString());
            return description;
        };
    }
}
