package dev.airlock.kernel.config;

import jakarta.validation.Valid;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The settings under {@code airlock.*} that both sides read: where the data lives, which sides a
 * replica runs, the HTTP edge, the database, metrics, the console's address, and each tenant's
 * agents. The agent side's settings ({@code AgentSettings}: capture, sandbox, executor, MCP, each
 * tenant's tools and limits) and the people's side's ({@code PeopleSettings}: people, sign-in,
 * tokens, approvals, retention, notifications) are bound from the same keys by their own modules;
 * {@link StrictSettings} stops the start on a key that none of them knows. Platform teams keep all
 * of it in YAML in git; secret values never appear here, only where the gateway finds them.
 *
 * @param dataDir     where the embedded PostgreSQL keeps its data, and replicas their result spool
 * @param nodeId      this replica's name in run claims, one live replica's; defaults to the host name and the
 *                    server's port
 * @param tenants     tenants by name, with their agents (every tenant's name: {@link TenantNames})
 * @param console     the web console
 * @param database    the embedded PostgreSQL
 * @param metrics     who may scrape {@code /actuator/prometheus}
 * @param migrateOnly apply the database migrations and stop (the migration step of a deployment)
 * @param roles       the sides this replica runs: {@code agent-api}, {@code console}, or both (the default)
 * @param http        bounds of every HTTP request and the proxies believed
 */
@ConfigurationProperties(prefix = "airlock")
@Validated
public record AirlockProperties(
        @DefaultValue("./airlock-data") Path dataDir,
        String nodeId,
        Map<String, Tenant> tenants,
        @DefaultValue @Valid Console console,
        @DefaultValue Database database,
        @DefaultValue @Valid Metrics metrics,
        @DefaultValue("false") boolean migrateOnly,
        @DefaultValue({"agent-api", "console"}) List<Side> roles,
        @DefaultValue @Valid Http http) {

    public AirlockProperties {
        if (roles.isEmpty()) {
            throw new InvalidConfigurationException(Side.PROPERTY, "name at least one of agent-api, console");
        }
        roles = List.copyOf(roles);
        tenants = tenants == null ? Map.of() : Map.copyOf(tenants);
    }

    /** The agents of {@code tenant}, by name (none when it configures none). */
    public Map<String, Agent> agents(String tenant) {
        Tenant config = tenants.get(tenant);
        return config == null ? Map.of() : config.agents();
    }

    /**
     * What both sides know of one tenant.
     *
     * @param agents agents by name
     */
    public record Tenant(Map<String, @Valid Agent> agents) {

        public Tenant {
            agents = agents == null ? Map.of() : Map.copyOf(agents);
        }
    }

    /**
     * An agent: only the SHA-256 of its key is configured.
     *
     * @param keySha256 lower-case hex SHA-256 of the agent's bearer key
     * @param owner     the person who runs this agent, if any; they may not approve its runs
     * @param runs      whose runs the agent may read, wait for and cancel: {@code own} (the default) or the whole {@code tenant}'s
     * @param labels    what policy rules may ask about the agent ({@code agent.labels.team})
     * @param tools     the tools the agent may use, by name or glob ({@code deploy-*}); absent: every tool of its
     *                  tenant. A tool it may not use is unknown to it everywhere
     */
    public record Agent(
            String keySha256,
            @Nullable String owner,
            @DefaultValue("own") RunVisibility runs,
            Map<String, String> labels,
            @Nullable List<String> tools) {

        public Agent {
            labels = labels == null ? Map.of() : Map.copyOf(labels);
            tools = tools == null ? null : List.copyOf(tools);
        }
    }

    /** Whose runs an agent may see. */
    public enum RunVisibility {
        /** Only the runs it requested. */
        OWN,
        /** Every run of its tenant, by any of the tenant's agents. */
        TENANT
    }

    /**
     * Bounds of every HTTP request, checked before anything parses it.
     *
     * @param maxRequestBody the largest request body; past it the request is answered 413
     * @param trustedProxies addresses ({@code 10.0.0.7}) or ranges ({@code 10.0.0.0/24}) of the reverse proxies whose
     *                       {@code X-Forwarded-For} and {@code X-Forwarded-Proto} are believed; none by default
     * @param publicUrl      where clients reach this gateway ({@code https://airlock.example.com}), as the OpenAPI
     *                       document names it; unset, the document names no host and clients use the one they asked
     */
    public record Http(
            @DefaultValue("1MB") DataSize maxRequestBody, List<String> trustedProxies, java.net.URI publicUrl) {

        public Http {
            if (maxRequestBody.toBytes() < 1024) {
                throw new InvalidConfigurationException("airlock.http.max-request-body", "must be at least 1KB");
            }
            trustedProxies = trustedProxies == null ? List.of() : List.copyOf(trustedProxies);
            if (publicUrl != null) {
                requireWebAddress("airlock.http.public-url", publicUrl);
            }
        }
    }

    /**
     * The web console.
     *
     * @param baseUrl the console's address as people reach it, for links in notifications
     */
    public record Console(
            @DefaultValue("http://localhost:8080") String baseUrl) {

        public Console {
            java.net.URI uri;
            try {
                uri = new java.net.URI(baseUrl);
            } catch (java.net.URISyntaxException e) {
                throw new InvalidConfigurationException(
                        "airlock.console.base-url", "must be an absolute http or https URL without user information");
            }
            requireWebAddress("airlock.console.base-url", uri);
        }
    }

    /** Refuses {@code uri} unless it is an absolute http or https URL with a host and no user information. */
    private static void requireWebAddress(String key, java.net.URI uri) {
        if (uri.getHost() == null
                || uri.getRawUserInfo() != null
                || !("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))) {
            throw new InvalidConfigurationException(
                    key, "must be an absolute http or https URL without user information");
        }
    }

    /**
     * Who may scrape the Prometheus metrics at {@code /actuator/prometheus}.
     *
     * @param scrapeTokenSha256 lower-case hex SHA-256 of the bearer token Prometheus sends; unset, nobody may
     */
    public record Metrics(@Nullable String scrapeTokenSha256) {

        public Metrics {
            if (scrapeTokenSha256 != null && !scrapeTokenSha256.matches("[0-9a-f]{64}")) {
                throw new InvalidConfigurationException(
                        "airlock.metrics.scrape-token-sha256",
                        "must be 64 lower-case hex digits (printf %s \"$TOKEN\" | sha256sum)");
            }
        }
    }

    /**
     * The embedded PostgreSQL (used when no {@code spring.datasource.url} is set).
     *
     * @param unsafeNoFsync run it without fsync and synchronous commit: faster, loses acknowledged
     *                      work on a power cut; for throw-away test and benchmark databases only
     */
    public record Database(@DefaultValue("false") boolean unsafeNoFsync) {}
}
