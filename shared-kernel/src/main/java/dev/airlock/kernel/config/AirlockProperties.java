package dev.airlock.kernel.config;

import dev.airlock.kernel.config.ApprovalMode;


import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;
import org.springframework.util.unit.DataSize;

/**
 * Everything under {@code airlock.*}. Platform teams keep it in YAML in git and load it with
 * {@code --spring.config.additional-location}; secret values never appear here, only where the
 * gateway finds them (its environment variables or files).
 *
 * @param dataDir  where the embedded PostgreSQL keeps its data (and nothing else yet)
 * @param nodeId   this replica's name in run claims; defaults to the host name
 * @param capture  process capture settings shared by every tool
 * @param tenants  tenants by name
 * @param users    people who sign in with a password, by user name
 * @param console  the web console
 * @param oidc     sign-in through an OpenID Connect provider
 * @param purge    the scheduled retention purge
 * @param executor how replicas look for work
 * @param approvals approval expiry and the bounds of what people type
 * @param audit    the audit chain verification command
 * @param login    throttling of password guessing
 * @param tokens   personal access tokens
 * @param database the embedded PostgreSQL
 * @param metrics  who may scrape {@code /actuator/prometheus}
 * @param migrateOnly apply the database migrations and stop (the migration step of a deployment)
 * @param roles    the sides this replica runs: {@code agent-api}, {@code console}, or both (the default)
 * @param sandbox  how every tool's process is isolated
 * @param mcp      the Model Context Protocol endpoint for agents
 * @param http     bounds of every HTTP request
 */
@ConfigurationProperties(prefix = "airlock", ignoreUnknownFields = false)
public record AirlockProperties(
        @DefaultValue("./airlock-data") Path dataDir,
        String nodeId,
        @DefaultValue Capture capture,
        Map<String, Tenant> tenants,
        Map<String, User> users,
        @DefaultValue Console console,
        @DefaultValue Oidc oidc,
        @DefaultValue Purge purge,
        @DefaultValue Executor executor,
        @DefaultValue Approvals approvals,
        @DefaultValue Audit audit,
        @DefaultValue Login login,
        @DefaultValue Tokens tokens,
        @DefaultValue Database database,
        @DefaultValue Metrics metrics,
        @DefaultValue("false") boolean migrateOnly,
        @DefaultValue({"agent-api", "console"}) List<Side> roles,
        @DefaultValue Sandbox sandbox,
        @DefaultValue Mcp mcp,
        @DefaultValue Http http) {

    public AirlockProperties {
        if (roles.isEmpty()) {
            throw new InvalidConfigurationException(Side.PROPERTY, "name at least one of agent-api, console");
        }
        roles = List.copyOf(roles);
        tenants = tenants == null ? Map.of() : tenants;
        users = users == null ? Map.of() : users;
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
    public record Http(@DefaultValue("1MB") DataSize maxRequestBody, List<String> trustedProxies, java.net.URI publicUrl) {

        public Http {
            if (maxRequestBody.toBytes() < 1024) {
                throw new InvalidConfigurationException("airlock.http.max-request-body", "must be at least 1KB");
            }
            trustedProxies = trustedProxies == null ? List.of() : List.copyOf(trustedProxies);
            if (publicUrl != null && (publicUrl.getHost() == null || publicUrl.getRawUserInfo() != null
                    || !("https".equals(publicUrl.getScheme()) || "http".equals(publicUrl.getScheme())))) {
                throw new InvalidConfigurationException("airlock.http.public-url", "must be an absolute http or https URL "
                        + "without user information");
            }
        }
    }

    /**
     * The web console.
     *
     * @param baseUrl the console's address as people reach it, for links in notifications
     */
    public record Console(@DefaultValue("http://localhost:8080") String baseUrl) {
    }

    /**
     * Sign-in through an OpenID Connect provider (configured under
     * {@code spring.security.oauth2.client.*}).
     *
     * @param rolesClaim the ID-token or user-info claim listing the person's roles as {@code ROLE:tenant}
     */
    public record Oidc(@DefaultValue("airlock_roles") String rolesClaim) {
    }

    /**
     * The scheduled retention purge, which removes what each tenant's {@link Retention} lets go.
     *
     * @param enabled      whether this replica runs it (replicas take turns through a database lock either way)
     * @param interval     the time between the end of one purge and the start of the next
     * @param initialDelay the time from start-up to the first purge
     */
    public record Purge(@DefaultValue("true") boolean enabled, @DefaultValue("PT1H") Duration interval,
            @DefaultValue("PT1M") Duration initialDelay) {
    }

    /**
     * How replicas look for work that no request started.
     *
     * @param pollInterval       how often approved runs nobody started are looked for
     * @param cancelPollInterval how often cancel requests made on other replicas are looked for
     * @param retryInterval      how often results the database refused (kept in the spool) are written again
     * @param leaseTtl           how long a replica's claim on a run it executes holds without renewal; renewed every third of it
     * @param drainTimeout       on shutdown, how long runs in flight may go on before they are cancelled
     * @param spoolDir           where results the database refused are kept until written; default {@code <data-dir>/spool}
     * @param leaseCheckInterval how often a replica renews its leases (when due) and looks for runs whose lease ran out
     */
    public record Executor(@DefaultValue("PT0.5S") Duration pollInterval, @DefaultValue("PT0.25S") Duration cancelPollInterval,
            @DefaultValue("PT5S") Duration retryInterval, @DefaultValue("PT30S") Duration leaseTtl,
            @DefaultValue("PT25S") Duration drainTimeout, Path spoolDir, @DefaultValue("PT0.5S") Duration leaseCheckInterval) {

        public Executor {
            if (leaseTtl.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new InvalidConfigurationException("airlock.executor.lease-ttl", "must be at least PT1S");
            }
            if (drainTimeout.isNegative()) {
                throw new InvalidConfigurationException("airlock.executor.drain-timeout", "must not be negative");
            }
        }
    }

    /**
     * Approval requests and what people type into them.
     *
     * @param expiryInterval how often pending requests are checked for expiry
     * @param maxTextLength  the longest reason (or other free text) a person may enter, in characters
     */
    public record Approvals(@DefaultValue("PT5S") Duration expiryInterval, @DefaultValue("2000") int maxTextLength) {

        public Approvals {
            if (maxTextLength < 1) {
                throw new InvalidConfigurationException("airlock.approvals.max-text-length", "must be at least 1");
            }
        }
    }

    /**
     * The audit chain verification command.
     *
     * @param verify the tenants to verify ({@code *} for all); set only to run the command
     */
    public record Audit(String verify) {
    }

    /**
     * Throttling of password guessing on the console's sign-in form.
     *
     * @param maxFailures           failed attempts for one user name within {@code window} before that name is locked out
     * @param maxFailuresPerAddress failed attempts from one client address within {@code window} before that address is locked out
     * @param window                how far back failed attempts count
     * @param lockout               how long every further attempt is refused after a lock-out
     */
    public record Login(@DefaultValue("5") int maxFailures, @DefaultValue("20") int maxFailuresPerAddress,
            @DefaultValue("PT15M") Duration window, @DefaultValue("PT15M") Duration lockout) {

        public Login {
            if (maxFailures < 1) {
                throw new InvalidConfigurationException("airlock.login.max-failures", "must be at least 1");
            }
            if (maxFailuresPerAddress < 1) {
                throw new InvalidConfigurationException("airlock.login.max-failures-per-address", "must be at least 1");
            }
        }
    }

    /**
     * Personal access tokens.
     *
     * @param defaultTtl how long a token lasts when its creator picks no expiry; unset, 30 days or
     *                   {@code maxTtl} if that is shorter
     * @param maxTtl     the longest lifetime a token may be given
     */
    public record Tokens(Duration defaultTtl, @DefaultValue("P90D") Duration maxTtl) {

        /** The default lifetime when none is configured (unless the maximum is shorter). */
        public static final Duration USUAL_TTL = Duration.ofDays(30);

        public Tokens {
            if (maxTtl == null || maxTtl.isNegative() || maxTtl.isZero()) {
                throw new InvalidConfigurationException("airlock.tokens.max-ttl", "must be positive");
            }
            if (defaultTtl == null) {
                defaultTtl = maxTtl.compareTo(USUAL_TTL) < 0 ? maxTtl : USUAL_TTL;
            }
            if (defaultTtl.isNegative() || defaultTtl.isZero() || maxTtl.compareTo(defaultTtl) < 0) {
                throw new InvalidConfigurationException("airlock.tokens.default-ttl",
                        "must be positive and no longer than airlock.tokens.max-ttl");
            }
        }
    }

    /**
     * Who may scrape the Prometheus metrics at {@code /actuator/prometheus}.
     *
     * @param scrapeTokenSha256 lower-case hex SHA-256 of the bearer token Prometheus sends; unset, nobody may
     */
    public record Metrics(String scrapeTokenSha256) {

        public Metrics {
            if (scrapeTokenSha256 != null && !scrapeTokenSha256.matches("[0-9a-f]{64}")) {
                throw new InvalidConfigurationException("airlock.metrics.scrape-token-sha256",
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
    public record Database(@DefaultValue("false") boolean unsafeNoFsync) {
    }

    /**
     * The Model Context Protocol endpoint ({@code /mcp}), through which agents call the same tools,
     * under the same keys, policies and limits, as through the REST API.
     *
     * @param enabled        whether {@code /mcp} is served at all
     * @param callWait       how long a {@code tools/call} (and {@code airlock_status}) waits for its run before answering
     * @param maxText        characters of transcript text one call returns before the rest is left to {@code airlock_output}
     * @param allowedOrigins browser origins ({@code scheme://host[:port]}) that may call {@code /mcp}; a request with any
     *                       other {@code Origin} header is refused, one without it is not a browser's and is let through
     */
    public record Mcp(@DefaultValue("true") boolean enabled, @DefaultValue("PT50S") Duration callWait,
            @DefaultValue("20000") int maxText, List<String> allowedOrigins) {

        public Mcp {
            if (callWait == null || callWait.isNegative() || callWait.isZero() || callWait.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new InvalidConfigurationException("airlock.mcp.call-wait", "must be positive and at most PT10M");
            }
            if (callWait.toMillis() % 1000 != 0) {
                throw new InvalidConfigurationException("airlock.mcp.call-wait", "must be whole seconds");
            }
            if (maxText < 1) {
                throw new InvalidConfigurationException("airlock.mcp.max-text", "must be at least 1");
            }
            List<String> origins = new java.util.ArrayList<>();
            for (int i = 0; allowedOrigins != null && i < allowedOrigins.size(); i++) {
                origins.add(origin(allowedOrigins.get(i), "airlock.mcp.allowed-origins[" + i + "]"));
            }
            allowedOrigins = List.copyOf(origins);
        }

        /** The origin as browsers serialize it (lower case), or a configuration error naming {@code key}. */
        private static String origin(String value, String key) {
            String origin = value == null ? "" : value.strip().toLowerCase(java.util.Locale.ROOT);
            java.net.URI uri;
            try {
                uri = new java.net.URI(origin);
            } catch (java.net.URISyntaxException e) {
                uri = null;
            }
            boolean bare = uri != null && uri.getScheme() != null && uri.getHost() != null && uri.getRawUserInfo() == null
                    && (uri.getRawPath() == null || uri.getRawPath().isEmpty()) && uri.getRawQuery() == null
                    && uri.getRawFragment() == null && !origin.contains("*");
            if (!bare) {
                throw new InvalidConfigurationException(key, "'" + value
                        + "' is not an origin: write scheme://host[:port] as browsers send it, without path, slash or wildcard");
            }
            return origin;
        }
    }

    /**
     * How long a tenant keeps each kind of record. Legal holds suspend all of it for a run.
     *
     * @param raw         raw artifact bytes (their digest, sizes and purge time stay)
     * @param transcripts sanitized transcripts
     * @param approvals   decided approval requests and their decisions
     * @param auditEvents audit events, oldest first
     */
    public record Retention(
            @DefaultValue("P7D") Duration raw,
            @DefaultValue("P90D") Duration transcripts,
            @DefaultValue("P400D") Duration approvals,
            @DefaultValue("P400D") Duration auditEvents) {
    }

    /**
     * Who may read raw artifacts, and for how long.
     *
     * @param secondPerson whether a grant needs a second person (AUDITOR or TENANT_ADMIN, not the requester)
     * @param grantTtl     how long a granted access lasts
     */
    public record RawAccess(@DefaultValue("true") boolean secondPerson, @DefaultValue("PT15M") Duration grantTtl) {
    }

    /**
     * Where a tenant's approval events are announced.
     *
     * @param webhooks URLs that receive a JSON POST for each new pending approval and each final decision
     */
    public record Notifications(List<java.net.URI> webhooks) {

        public Notifications {
            webhooks = webhooks == null ? List.of() : List.copyOf(webhooks);
        }
    }

    /**
     * A person who signs in to the console or the approver API.
     *
     * @param password       the password hash in Spring Security's delegating format ({@code {bcrypt}...})
     * @param roles          roles per tenant: APPROVER, AUDITOR, TENANT_ADMIN
     * @param platformAdmin  whether the person administers the whole platform
     */
    public record User(String password, Map<String, List<String>> roles, @DefaultValue("false") boolean platformAdmin) {

        public User {
            roles = roles == null ? Map.of() : roles;
        }
    }

    /**
     * Process capture settings.
     *
     * @param path          the PATH given to every child process
     * @param drainTimeout  how long to wait for a stream's end after its process has exited
     * @param maxWait       the longest {@code ?wait=} a request may ask for
     */
    public record Capture(
            @DefaultValue("/usr/local/bin:/usr/bin:/bin") String path,
            @DefaultValue("PT2S") Duration drainTimeout,
            @DefaultValue("PT60S") Duration maxWait) {
    }

    /**
     * How every tool's process is isolated (see docs/sandbox.md).
     *
     * @param mode      {@code bubblewrap} (each run in its own namespaces, with limits) or {@code none}
     * @param bwrapPath the bubblewrap executable; found on the gateway's PATH when unset
     * @param hostUid   when the gateway runs as root: the unprivileged host user the sandbox runs as
     * @param hostGid   when the gateway runs as root: the unprivileged host group the sandbox runs as
     * @param workDir   where replicas keep their runs' fresh working directories, one directory per replica
     *                  (default {@code <java.io.tmpdir>/airlock-work-<uid>}); only the gateway's user may write it
     * @param cgroup    a cgroup v2 directory delegated to the gateway, below which each run gets a cgroup bounding
     *                  its memory as a whole; unset, each process's address space is bounded instead
     */
    public record Sandbox(
            @DefaultValue("bubblewrap") SandboxMode mode,
            Path bwrapPath,
            @DefaultValue("65534") int hostUid,
            @DefaultValue("65534") int hostGid,
            Path workDir,
            Path cgroup) {
    }

    /**
     * One tool's sandbox: what it may reach beyond its working directory and what it may use.
     *
     * @param network        whether the run shares the host's network (otherwise it has only a loopback of its own)
     * @param readOnlyPaths  absolute host paths mounted read-only at the same place
     * @param writablePaths  absolute host paths mounted read-write at the same place
     * @param maxProcesses   processes of the run at once, the sandbox's own init included (RLIMIT_NPROC)
     * @param maxMemory      data memory of each process (RLIMIT_DATA)
     * @param maxFileSize    the largest file a process may write (RLIMIT_FSIZE)
     * @param maxOpenFiles   open files of each process (RLIMIT_NOFILE)
     * @param tmpSize        the size of the run's private {@code /tmp}, and of its {@code /dev/shm}
     */
    public record ToolSandbox(
            @DefaultValue("false") boolean network,
            List<String> readOnlyPaths,
            List<String> writablePaths,
            @DefaultValue("256") int maxProcesses,
            @DefaultValue("1GB") DataSize maxMemory,
            @DefaultValue("1GB") DataSize maxFileSize,
            @DefaultValue("1024") int maxOpenFiles,
            @DefaultValue("256MB") DataSize tmpSize) {

        public ToolSandbox {
            readOnlyPaths = readOnlyPaths == null ? List.of() : readOnlyPaths;
            writablePaths = writablePaths == null ? List.of() : writablePaths;
        }
    }

    /**
     * One tenant.
     *
     * @param limits         concurrency and rate limits
     * @param agents         agents by name
     * @param tools          tools by name
     * @param notifications  where approval events are announced
     * @param retention      how long each kind of record is kept
     * @param rawAccess      the grant policy for raw artifacts
     */
    public record Tenant(@DefaultValue Limits limits, Map<String, Agent> agents, Map<String, Tool> tools,
            @DefaultValue Notifications notifications, @DefaultValue Retention retention, @DefaultValue RawAccess rawAccess) {

        public Tenant {
            agents = agents == null ? Map.of() : agents;
            tools = tools == null ? Map.of() : tools;
        }
    }

    /**
     * A tenant's limits.
     *
     * @param concurrentRuns          runs of the tenant executing at once on one replica
     * @param runsPerMinutePerAgent   new runs one agent may request per minute
     * @param concurrentWaits         requests of the tenant's agents waiting for a run to end
     *                                ({@code ?wait}, MCP calls) at once on one replica; past it a
     *                                request answers at once with the run as it stands
     */
    public record Limits(@DefaultValue("8") int concurrentRuns, @DefaultValue("120") int runsPerMinutePerAgent,
            @DefaultValue("100") int concurrentWaits) {
    }

    /**
     * An agent: only the SHA-256 of its key is configured.
     *
     * @param keySha256 lower-case hex SHA-256 of the agent's bearer key
     * @param owner     the person who runs this agent, if any; they may not approve its runs
     * @param runs      whose runs the agent may read, wait for and cancel: {@code own} (the default) or the whole {@code tenant}'s
     */
    public record Agent(String keySha256, String owner, @DefaultValue("own") RunVisibility runs) {
    }

    /** Whose runs an agent may see. */
    public enum RunVisibility {
        /** Only the runs it requested. */
        OWN,
        /** Every run of its tenant, by any of the tenant's agents. */
        TENANT
    }

    /**
     * A tool an agent can ask Airlock to run.
     *
     * @param description       shown to agents in the tool list
     * @param argv              the argument vector; {@code {name}} stands for a parameter
     * @param parameters        typed parameters by name
     * @param approval          auto, required or deny
     * @param approvers         distinct humans needed when approval is required
     * @param approvalTimeout   how long an approval request waits
     * @param reason            required or optional: whether approving needs a reason (denying always does)
     * @param timeout           the run's time limit
     * @param maxRetainedBytes  per stream, kept for the transcript and the raw artifact
     * @param maxObservedBytes  per stream; past it the process tree is killed
     * @param workingDir        the child's working directory; a fresh empty one per run if unset
     * @param env               extra environment variables for the child
     * @param secrets           child environment name → where the value comes from: {@code env:VARIABLE},
     *                          {@code file:/path}, or a plain gateway environment variable name
     * @param sandbox           what the run may reach and use inside its sandbox
     * @param annotations       hints for MCP clients about what the tool does, or null for none
     */
    public record Tool(
            String description,
            List<String> argv,
            Map<String, Parameter> parameters,
            @DefaultValue("auto") ApprovalMode approval,
            @DefaultValue("1") int approvers,
            @DefaultValue("PT1H") Duration approvalTimeout,
            @DefaultValue("optional") String reason,
            @DefaultValue("PT30S") Duration timeout,
            @DefaultValue("1MB") DataSize maxRetainedBytes,
            @DefaultValue("64MB") DataSize maxObservedBytes,
            Path workingDir,
            Map<String, String> env,
            Map<String, String> secrets,
            @DefaultValue ToolSandbox sandbox,
            Annotations annotations) {

        public Tool {
            argv = argv == null ? List.of() : argv;
            parameters = parameters == null ? Map.of() : parameters;
            env = env == null ? Map.of() : env;
            secrets = secrets == null ? Map.of() : secrets;
        }
    }

    /**
     * What an MCP client may tell its user or model about a tool (the MCP tool annotations). They
     * are hints for clients only: Airlock's policy, not these, decides what runs. Unset hints are
     * left out, and clients then assume the cautious defaults (not read-only, destructive, not
     * idempotent, open world).
     *
     * @param readOnlyHint    the tool changes nothing
     * @param destructiveHint the tool may destroy or overwrite (meaningful only when not read-only)
     * @param idempotentHint  repeating a call with the same arguments has no further effect (only when not read-only)
     * @param openWorldHint   the tool reaches systems outside the tenant's own (the internet, other services)
     */
    public record Annotations(Boolean readOnlyHint, Boolean destructiveHint, Boolean idempotentHint, Boolean openWorldHint) {
    }

    /**
     * A typed tool parameter.
     *
     * @param type              string, integer or boolean
     * @param description       shown to agents
     * @param pattern           strings: a regular expression the whole value must match
     * @param maxLength         strings: the longest value, in characters (default 1024)
     * @param min               integers: the smallest value
     * @param max               integers: the largest value
     * @param values            strings: the only values allowed
     * @param defaultValue      the value used when the argument is absent; without one the argument is required
     * @param allowLeadingDash  whether a value may start with '-', a negative integer included (off: values cannot pose as options)
     */
    public record Parameter(
            @DefaultValue("string") String type,
            String description,
            String pattern,
            Integer maxLength,
            Long min,
            Long max,
            List<String> values,
            @Name("default") String defaultValue,
            @DefaultValue("false") boolean allowLeadingDash) {
    }
}
