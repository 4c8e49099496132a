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
        // Each field named and its value's length given: no value can be read as another's, and a
        // field added to a settings record later does not change the digest of what exists today.
        StringBuilder canonical = new StringBuilder();
        field(canonical, "command", server.command());
        field(canonical, "url", server.url());
        new java.util.TreeMap<>(server.env()).forEach((k, v) -> field(canonical, "env." + k, v));
        new java.util.TreeMap<>(server.secrets()).forEach((k, v) -> field(canonical, "secrets." + k, v));
        AgentSettings.ToolSandbox sandbox = server.sandbox();
        field(canonical, "sandbox.network", sandbox.network());
        field(canonical, "sandbox.read-only-paths", sandbox.readOnlyPaths());
        field(canonical, "sandbox.writable-paths", sandbox.writablePaths());
        field(canonical, "sandbox.max-processes", sandbox.maxProcesses());
        field(canonical, "sandbox.max-memory", sandbox.maxMemory().toBytes());
        field(canonical, "sandbox.max-file-size", sandbox.maxFileSize().toBytes());
        field(canonical, "sandbox.max-open-files", sandbox.maxOpenFiles());
        field(canonical, "sandbox.tmp-size", sandbox.tmpSize().toBytes());
        field(canonical, "allow-private-network", server.allowPrivateNetwork());
        AgentSettings.Tls tls = server.tls();
        field(canonical, "tls.trust-store", tls == null ? null : tls.trustStore());
        field(canonical, "tls.trust-store-type", tls == null ? null : tls.trustStoreType());
        AgentSettings.Auth auth = server.auth();
        field(canonical, "auth.type", auth == null ? null : auth.type());
        field(canonical, "auth.token", auth == null ? null : auth.token());
        field(canonical, "auth.username", auth == null ? null : auth.username());
        field(canonical, "auth.password", auth == null ? null : auth.password());
        field(canonical, "auth.header-name", auth == null ? null : auth.headerName());
        field(canonical, "auth.value", auth == null ? null : auth.value());
        return dev.airlock.kernel.digest.Sha256.hex(canonical.toString());
    }

    private static void field(StringBuilder canonical, String name, @org.jspecify.annotations.Nullable Object value) {
        if (value == null) {
            // Unset, told apart from any value (every value is written with its length first).
            canonical.append(name).append("=~\n");
            return;
        }
        String text = value instanceof java.util.List<?> list
                ? list.stream()
                        .map(item -> String.valueOf(item).length() + ":" + item)
                        .collect(java.util.stream.Collectors.joining(",", "[", "]"))
                : String.valueOf(value);
        canonical
                .append(name)
                .append('=')
                .append(text.length())
                .append(':')
                .append(text)
                .append('\n');
    }
}
