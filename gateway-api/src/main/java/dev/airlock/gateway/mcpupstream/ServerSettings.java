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

    /**
     * SHA-256 of what decides where a call to {@code server} goes and what it carries: its command,
     * URL, environment and secrets (their sources, never values), sandbox, network permission, trust
     * store (not its password) and credential (its sources). Recorded with every run of its tools
     * and compared before the call: a run requested (and approved) against one server is refused,
     * never sent, when the server's settings have changed since.
     */
    static String sha256(AgentSettings.McpServer server) {
        StringBuilder canonical = new StringBuilder();
        canonical
                .append("command=")
                .append(String.join("\u0000", server.command()))
                .append('\n');
        canonical.append("url=").append(server.url()).append('\n');
        canonical.append("env=").append(new java.util.TreeMap<>(server.env())).append('\n');
        canonical
                .append("secrets=")
                .append(new java.util.TreeMap<>(server.secrets()))
                .append('\n');
        canonical.append("sandbox=").append(server.sandbox()).append('\n');
        canonical
                .append("allowPrivateNetwork=")
                .append(server.allowPrivateNetwork())
                .append('\n');
        AgentSettings.Tls tls = server.tls();
        canonical.append("tls=").append(tls == null ? null : tls.trustStore() + " " + tls.trustStoreType());
        canonical.append('\n').append("auth=").append(server.auth()).append('\n');
        return dev.airlock.kernel.digest.Sha256.hex(canonical.toString());
    }
}
