package dev.airlock.gateway.settings;

import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.gateway.tool.ToolCatalog;
import dev.airlock.gateway.tool.ToolCompiler;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.SettingsBinder;
import dev.airlock.kernel.config.TenantNames;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Settings as the application binds them from the same keys: what both sides read, each side's own
 * record, and the configured tenants.
 *
 * @param shared  the settings both sides read
 * @param agent   the agent side's settings
 * @param people  the people's side's settings
 * @param tenants every configured tenant
 */
public record BoundSettings(AirlockProperties shared, AgentSettings agent, PeopleSettings people, TenantNames tenants) {

    /** Binds {@code entries} (keys as written in {@code application.yaml}, flattened) the way the application does. */
    public static BoundSettings bind(Map<String, String> entries) {
        List<ConfigurationPropertySource> sources = List.of(new MapConfigurationPropertySource(entries));
        return new BoundSettings(
                SettingsBinder.bind(sources, AirlockProperties.class),
                SettingsBinder.bind(sources, AgentSettings.class),
                SettingsBinder.bind(sources, PeopleSettings.class),
                TenantNames.of(sources));
    }

    /** The tools these settings configure. */
    public ToolCatalog catalog() {
        return ToolCompiler.compile(shared, agent, tenants);
    }
}
