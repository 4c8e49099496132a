package dev.airlock.gateway.mcpupstream;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.sanitizer.SecretRedactor;

/**
 * One tenant's MCP server as configured.
 *
 * @param tenant   the tenant
 * @param name     the server's name in {@code mcp-servers}
 * @param key      its settings' key, {@code airlock.tenants.<tenant>.mcp-servers.<name>}
 * @param settings its settings
 * @param redactor what redacts its secret values (a stdio server's secrets, a URL server's credential, read
 *                 now) from what it answers and logs
 * @param credential a URL server's credential (null for a stdio server)
 * @param seen     a stdio server's secret values, as given at each of its starts (null for a URL server)
 */
record ServerSettings(
        String tenant,
        String name,
        String key,
        AgentSettings.McpServer settings,
        java.util.function.Supplier<SecretRedactor> redactor,
        @org.jspecify.annotations.Nullable UrlCredential credential,
        @org.jspecify.annotations.Nullable SeenSecrets seen) {

    /** {@code <tenant>/<server>}, for logs and metrics. */
    String label() {
        return tenant + "/" + name;
    }
}
