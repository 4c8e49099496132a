package dev.airlock.gateway.mcpupstream;

import dev.airlock.egress.Egress;
import dev.airlock.egress.EgressRequest;
import dev.airlock.egress.Upstream;
import dev.airlock.gateway.capture.ProcessSpec;
import dev.airlock.gateway.capture.ProcessSupervisor;
import dev.airlock.gateway.capture.SandboxPolicy;
import dev.airlock.gateway.capture.SecretReference;
import dev.airlock.gateway.capture.SecretSource;
import dev.airlock.gateway.capture.ServerProcess;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.tool.HttpUpstream;
import dev.airlock.gateway.tool.ToolCatalog;
import dev.airlock.gateway.tool.ToolCompiler;
import dev.airlock.gateway.upstream.UpstreamClients;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.TenantNames;
import dev.airlock.persistence.mcp.McpToolDefinitions;
import dev.airlock.persistence.run.Termination;
import dev.airlock.persistence.scope.Scopes;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every tenant's upstream MCP servers on this replica (docs/mcp-upstreams.md). Their settings are
 * checked when the gateway is made (a setting that cannot be honoured stops the start, naming its
 * key); each server is started and initialized, and its first listing read, before the gateway
 * takes requests. A server that cannot be started, or dies later, is down: its tools are
 * unavailable, its health says why, and it is connected again with backoff.
 */
@Component
public class McpServers implements SmartLifecycle {

    private static final Pattern SERVER_NAME = Pattern.compile(
            "[a-z0-9][a-z0-9_-]{0," + (dev.airlock.gateway.tool.ToolCatalog.MAX_SERVER_NAME_LENGTH - 1) + "}");

    private final Map<String, ServerHandle> handles = new LinkedHashMap<>();
    private volatile boolean running;

    McpServers(
            AgentSettings settings,
            TenantNames tenants,
            ToolCatalog catalog,
            ProcessSupervisor supervisor,
            Egress egress,
            SecretSource secrets,
            McpToolDefinitions definitions,
            Scopes scopes,
            JsonMapper json,
            Clock clock) {
        String version = Optional.ofNullable(McpServers.class.getPackage().getImplementationVersion())
                .orElse("dev");
        for (String tenant : tenants.names()) {
            settings.tenant(tenant).mcpServers().forEach((name, server) -> {
                String key = "airlock.tenants." + tenant + ".mcp-servers." + name;
                ServerSettings configured = check(tenant, name, key, server, catalog, secrets);
                ServerHandle.Connector connector = server.url() != null
                        ? http(configured, egress, secrets, json)
                        : stdio(configured, settings, supervisor, secrets, json);
                handles.put(
                        tenant + "/" + name,
                        new ServerHandle(configured, connector, catalog, definitions, scopes, clock, version));
            });
        }
    }

    /** {@code tenant}'s server {@code name}, if it is configured. */
    Optional<ServerHandle> handle(String tenant, String name) {
        return Optional.ofNullable(handles.get(tenant + "/" + name));
    }

    /**
     * The state of every server: {@code <tenant>/<server>} → null while it is up, or why it is
     * down.
     */
    public Map<String, @Nullable String> health() {
        Map<String, @Nullable String> health = new TreeMap<>();
        handles.forEach((k, h) -> health.put(k, h.down()));
        return health;
    }

    static ServerSettings check(
            String tenant,
            String name,
            String key,
            AgentSettings.McpServer server,
            ToolCatalog catalog,
            SecretSource secrets) {
        if (!SERVER_NAME.matcher(name).matches()) {
            throw new InvalidConfigurationException(key, "MCP server names use a-z, 0-9, '_' and '-' (no '.')");
        }
        boolean command = !server.command().isEmpty();
        if (command == (server.url() != null)) {
            throw new InvalidConfigurationException(
                    key,
                    "an MCP server has a command (a stdio server) or a url (a streamable-HTTP server), exactly one");
        }
        for (var tool : catalog.tools(tenant)) {
            if (tool.name().startsWith(name + UpstreamTools.SEPARATOR)) {
                throw new InvalidConfigurationException(
                        key,
                        "its tools are offered as " + name + UpstreamTools.SEPARATOR + "<tool>, and tenant tool "
                                + tool.name() + " has such a name");
            }
        }
        AgentSettings.McpServer defaults = new org.springframework.boot.context.properties.bind.Binder()
                .bindOrCreate("x", AgentSettings.McpServer.class);
        for (int i = 0; i < server.tools().overrides().size(); i++) {
            if (server.tools().overrides().get(i).match().isEmpty()) {
                throw new InvalidConfigurationException(
                        key + ".tools.overrides[" + i + "].match", "must name at least one tool or glob");
            }
        }
        checkRulesApply(key, server);
        if (command) {
            if (server.auth() != null) {
                throw new InvalidConfigurationException(
                        key + ".auth", "a stdio server gets credentials through secrets");
            }
            // The URL client's settings: on a command server they would be silently without effect.
            urlOnly(key + ".allow-private-network", server.allowPrivateNetwork() != defaults.allowPrivateNetwork());
            urlOnly(key + ".tls", !java.util.Objects.equals(server.tls(), defaults.tls()));
            urlOnly(
                    key + ".circuit-breaker",
                    !java.util.Objects.equals(server.circuitBreaker(), defaults.circuitBreaker()));
            urlOnly(key + ".max-concurrent-calls", server.maxConcurrentCalls() != defaults.maxConcurrentCalls());
            ToolCompiler.checkEnvironment(server.env(), server.secrets(), key);
            SandboxPolicy sandbox = ToolCompiler.sandboxOf(server.sandbox(), key + ".sandbox");
            // The server's mounts keep the rules every tool's keep: no writable path over another's
            // mount, the work area, the data directory or a secret file.
            String mountProblem = catalog.mounts()
                    .problem(
                            dev.airlock.gateway.capture.MountRules.mountsOf(key, sandbox, null),
                            dev.airlock.gateway.capture.MountRules.secretFilesOf(key, server.secrets()));
            if (mountProblem != null) {
                throw new InvalidConfigurationException(key + ".sandbox", mountProblem);
            }
            Map<String, String> values = new TreeMap<>();
            server.secrets().forEach((variable, source) -> {
                try {
                    values.put(variable, SecretReference.parse(source).read(secrets));
                } catch (IllegalArgumentException | SecretReference.SecretUnavailable e) {
                    throw new InvalidConfigurationException(
                            key + ".secrets." + variable, "cannot be read: " + e.getMessage());
                }
            });
            // Values read at each start are added: a rotated secret is redacted in its old and new value.
            SeenSecrets seen = new SeenSecrets();
            seen.rememberWithForms(values);
            return new ServerSettings(tenant, name, key, server, seen::redactor, null, seen);
        }
        if (!server.env().isEmpty() || !server.secrets().isEmpty()) {
            throw new InvalidConfigurationException(
                    key + (server.env().isEmpty() ? ".secrets" : ".env"),
                    "a URL server runs no process here; its credential goes in auth");
        }
        if (!server.sandbox().equals(defaults.sandbox())) {
            throw new InvalidConfigurationException(key + ".sandbox", "a URL server runs no process here");
        }
        // The credential's terms are read once; its values at each use, as the client reads them.
        HttpUpstream.Auth auth = ToolCompiler.upstream(name, asUpstream(server), key, key + ".url")
                .auth();
        UrlCredential credential = new UrlCredential(auth, secrets);
        return new ServerSettings(tenant, name, key, server, credential::redactor, credential, null);
    }

    /**
     * The rules each of the server's tools will be compiled with, once listed, set no approval
     * setting their approval does not use (see {@link dev.airlock.rules.ToolRules#checkApprovalSettings}):
     * checked here, so that such a configuration stops the start instead of withholding the tools
     * when they are listed. An override without rules of its own inherits the server's under its own
     * approval.
     */
    private static void checkRulesApply(String key, AgentSettings.McpServer server) {
        dev.airlock.rules.ToolRules.checkApprovalSettings(
                ToolCompiler.specsOf(server.rules()), server.approval(), key + ".rules");
        for (int i = 0; i < server.tools().overrides().size(); i++) {
            AgentSettings.McpToolOverride override = server.tools().overrides().get(i);
            String at = key + ".tools.overrides[" + i + "]";
            dev.airlock.rules.ToolRules.checkApprovalSettings(
                    ToolCompiler.specsOf(override.rules() != null ? override.rules() : server.rules()),
                    override.approval() != null ? override.approval() : server.approval(),
                    override.rules() != null ? at + ".rules" : at + " (its approval) with " + key + ".rules");
        }
    }

    private static void urlOnly(String key, boolean given) {
        if (given) {
            throw new InvalidConfigurationException(
                    key,
                    "applies to URL servers only; a stdio server (command) runs in the sandbox, not through the HTTP client");
        }
    }

    /** A URL server's client settings, as an upstream's. */
    private static AgentSettings.Upstream asUpstream(AgentSettings.McpServer settings) {
        return new AgentSettings.Upstream(
                java.util.Objects.requireNonNull(settings.url(), "a URL server's url"),
                settings.allowPrivateNetwork(),
                settings.tls(),
                settings.timeout(),
                settings.maxResponseBytes(),
                settings.circuitBreaker(),
                new AgentSettings.Retry(1, Duration.ofMillis(200)),
                settings.maxConcurrentCalls(),
                settings.auth());
    }

    private static ServerHandle.Connector stdio(
            ServerSettings server,
            AgentSettings settings,
            ProcessSupervisor supervisor,
            SecretSource secrets,
            JsonMapper json) {
        SandboxPolicy sandbox = ToolCompiler.sandboxOf(server.settings().sandbox(), server.key() + ".sandbox");
        return notifications -> {
            Map<String, String> environment = new HashMap<>(server.settings().env());
            environment.put("PATH", settings.capture().path());
            Map<String, String> values = new TreeMap<>();
            for (var secret : server.settings().secrets().entrySet()) {
                try {
                    values.put(
                            secret.getKey(),
                            SecretReference.parse(secret.getValue()).read(secrets));
                } catch (IllegalArgumentException | SecretReference.SecretUnavailable e) {
                    throw new McpFailure(
                            Termination.SERVER_DOWN,
                            "secret " + secret.getKey() + " is not available (" + e.getMessage() + ")");
                }
            }
            environment.putAll(values);
            java.util.Objects.requireNonNull(server.seen(), "a stdio server's secrets")
                    .rememberWithForms(values);
            ProcessSpec spec = new ProcessSpec(
                    UUID.randomUUID(),
                    server.label(),
                    server.settings().command(),
                    null,
                    environment,
                    Duration.ofDays(3650),
                    server.settings().maxResponseBytes().toBytes(),
                    server.settings().maxResponseBytes().toBytes(),
                    server.redactor().get(),
                    sandbox);
            ServerProcess process;
            try {
                process = supervisor.startServer(spec);
            } catch (IOException e) {
                throw new McpFailure(Termination.SERVER_DOWN, "cannot start the server: " + e.getMessage());
            }
            return new StdioChannel(
                    server.label(),
                    json,
                    notifications,
                    server.redactor(),
                    process,
                    server.settings().maxResponseBytes().toBytes());
        };
    }

    private static ServerHandle.Connector http(
            ServerSettings server, Egress egress, SecretSource secrets, JsonMapper json) {
        AgentSettings.McpServer settings = server.settings();
        URI url = java.util.Objects.requireNonNull(settings.url(), "a URL server's url");
        AgentSettings.Upstream asUpstream = asUpstream(settings);
        HttpUpstream terms = ToolCompiler.upstream(server.name(), asUpstream, server.key(), server.key() + ".url");
        if (!terms.baseUrl().equals(url.toString()) && !terms.baseUrl().equals(stripSlash(url.toString()))) {
            throw new InvalidConfigurationException(server.key() + ".url", "must be a plain http(s) URL");
        }
        Upstream client = egress.upstream(
                server.tenant() + "/mcp:" + server.name(), UpstreamClients.policy(asUpstream, server.key(), secrets));
        UrlCredential credential = java.util.Objects.requireNonNull(server.credential(), "a URL server's credential");
        return notifications ->
                new HttpChannel(server.label(), json, notifications, server.redactor(), client, url, () -> {
                    EgressRequest.@Nullable Header header = credential.header();
                    return header == null ? List.of() : List.of(header);
                });
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /**
     * Starts every server, each on a thread of its own, and waits until each is up or could not be
     * started (each within its {@code start-timeout}); one that could not is down and tried again
     * in the background. No tenant's server keeps the gateway, or another tenant's tools, from
     * starting.
     */
    @Override
    public void start() {
        List<Thread> starting = new ArrayList<>();
        for (ServerHandle handle : handles.values()) {
            starting.add(Thread.ofVirtual()
                    .name("mcp-start-" + handle.server().label())
                    .start(handle::start));
        }
        for (Thread thread : starting) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        running = true;
    }

    @Override
    public void stop() {
        handles.values().forEach(ServerHandle::stop);
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Before the web server: no request sees a tenant without its servers' tools. */
    @Override
    public int getPhase() {
        return 0;
    }
}
