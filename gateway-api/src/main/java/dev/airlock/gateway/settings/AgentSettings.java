package dev.airlock.gateway.settings;

import dev.airlock.kernel.config.ApprovalMode;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.ReasonPolicy;
import dev.airlock.kernel.config.SandboxMode;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.PositiveOrZero;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The agent side's settings under {@code airlock.*}: process capture, the sandbox, the executor,
 * the MCP endpoint, and each tenant's tools and limits. Bound from the same keys as the settings
 * both sides read ({@code AirlockProperties}); a key that none of them knows stops the start.
 *
 * @param capture  process capture settings shared by every tool
 * @param sandbox  how every tool's process is isolated
 * @param executor how replicas look for work
 * @param mcp      the Model Context Protocol endpoint for agents
 * @param tenants  each tenant's tools and limits, by tenant name
 * @param policy   the policy explain command (docs/policy.md); set only to run it
 */
@ConfigurationProperties(prefix = "airlock")
@Validated
public record AgentSettings(
        @DefaultValue @Valid Capture capture,
        @DefaultValue @Valid Sandbox sandbox,
        @DefaultValue @Valid Executor executor,
        @DefaultValue @Valid Mcp mcp,
        Map<String, @Valid Tenant> tenants,
        @DefaultValue Policy policy) {

    /**
     * The policy explain command: what policy a tool call would get, and why, from the
     * configuration alone (nothing runs, no database is opened).
     *
     * @param explain   {@code <tenant>/<tool>}: set to run the command
     * @param agent     the agent asking (its labels and tool access count)
     * @param arguments the call's arguments, as a JSON object
     */
    public record Policy(
            @Nullable String explain,
            @Nullable String agent,
            @DefaultValue("{}") String arguments) {}

    static final String MUST_BE_AT_LEAST_1 = "must be at least 1";

    static final String MUST_BE_POSITIVE = "must be a positive duration";

    static final String PERCENTAGE = "must be a percentage from 1 to 100";

    /** A tenant that configures nothing of the agent side: every setting at its default. */
    private static final Tenant DEFAULT_TENANT =
            new Binder().bindOrCreate("airlock.tenants.x", Bindable.of(Tenant.class));

    public AgentSettings {
        tenants = tenants == null ? Map.of() : Map.copyOf(tenants);
    }

    /** The tenant's settings of this side, the defaults when it configures none. */
    public Tenant tenant(String name) {
        return tenants.getOrDefault(name, DEFAULT_TENANT);
    }

    /**
     * One tenant, as the agent side sees it.
     *
     * @param limits concurrency and rate limits
     * @param tools  tools by name
     */
    public record Tenant(
            @DefaultValue @Valid Limits limits,
            Map<String, @Valid Tool> tools,
            Map<String, @Valid Upstream> upstreams,
            Map<String, @Valid McpServer> mcpServers) {

        public Tenant {
            tools = tools == null ? Map.of() : Map.copyOf(tools);
            upstreams = upstreams == null ? Map.of() : Map.copyOf(upstreams);
            mcpServers = mcpServers == null ? Map.of() : Map.copyOf(mcpServers);
        }
    }

    /**
     * An upstream MCP server whose tools the tenant's agents use through Airlock
     * (docs/mcp-upstreams.md): a stdio server Airlock starts in its sandbox ({@code command}), or a
     * streamable-HTTP server ({@code url}), never both.
     *
     * @param command             a stdio server's argument vector, its program first
     * @param url                 a streamable-HTTP server's endpoint
     * @param env                 a stdio server's extra environment
     * @param secrets             a stdio server's environment from secrets (as a command tool's)
     * @param sandbox             a stdio server's sandbox (as a command tool's)
     * @param allowPrivateNetwork whether a URL server may be reached on a non-public address
     * @param tls                 a private CA to trust for a URL server
     * @param auth                the credential Airlock adds to every message to a URL server
     * @param circuitBreaker      when calls to a URL server stop for a while
     * @param maxConcurrentCalls  messages in flight to a URL server at once on one replica
     * @param startTimeout        how long starting and initializing the server may take
     * @param refreshInterval     how often its tool listing is read again (besides at each call and on its notice)
     * @param maxResponseBytes    the longest message read from it
     * @param maxRetainedBytes    of a call's result, bytes kept for the transcript
     * @param approval            its tools' approval mode unless an override says otherwise (default required)
     * @param approvers           approvals needed
     * @param approvalTimeout     how long an approval request waits
     * @param reason              whether approving needs a reason
     * @param timeout             one call's time limit
     * @param rules               policy rules over its tools' arguments, in order
     * @param tools               which of its tools are offered, and per-tool overrides
     */
    public record McpServer(
            List<String> command,
            java.net.URI url,
            Map<String, String> env,
            Map<String, String> secrets,
            @DefaultValue @Valid ToolSandbox sandbox,
            @DefaultValue("false") boolean allowPrivateNetwork,
            @DefaultValue @Valid Tls tls,
            @Valid Auth auth,
            @DefaultValue @Valid CircuitBreaker circuitBreaker,

            @DefaultValue("16") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int maxConcurrentCalls,

            @DefaultValue("PT30S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration startTimeout,

            @DefaultValue("PT5M") @DurationMin(seconds = 1, message = "must be at least 1 second")
            Duration refreshInterval,

            @DefaultValue("1MB") DataSize maxResponseBytes,
            @DefaultValue("1MB") DataSize maxRetainedBytes,
            @DefaultValue("required") ApprovalMode approval,

            @DefaultValue("1") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int approvers,

            @DefaultValue("PT1H") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration approvalTimeout,

            @DefaultValue("optional") ReasonPolicy reason,

            @DefaultValue("PT30S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration timeout,

            List<@Valid Rule> rules,
            @DefaultValue @Valid McpTools tools) {

        public McpServer {
            command = command == null ? List.of() : List.copyOf(command);
            env = env == null ? Map.of() : Map.copyOf(env);
            secrets = secrets == null ? Map.of() : Map.copyOf(secrets);
            rules = rules == null ? List.of() : List.copyOf(rules);
        }
    }

    /**
     * Which of an upstream MCP server's tools are offered, and what is different for some of them.
     *
     * @param include   names or globs ({@code list_*}) of the tools offered; absent: all
     * @param exclude   names or globs of tools never offered, even if included
     * @param overrides per-tool settings; the first whose {@code match} holds applies
     */
    public record McpTools(List<String> include, List<String> exclude, List<@Valid McpToolOverride> overrides) {

        public McpTools {
            include = include == null ? List.of("*") : List.copyOf(include);
            exclude = exclude == null ? List.of() : List.copyOf(exclude);
            overrides = overrides == null ? List.of() : List.copyOf(overrides);
        }
    }

    /**
     * Settings of the upstream tools {@code match} names; an absent setting is the server's.
     *
     * @param match           names or globs of the upstream's tools (as the server names them)
     * @param approval        approval mode
     * @param approvers       approvals needed
     * @param approvalTimeout how long an approval request waits
     * @param reason          whether approving needs a reason
     * @param timeout         one call's time limit
     * @param rules           policy rules, instead of the server's
     */
    public record McpToolOverride(
            List<String> match,
            @Nullable ApprovalMode approval,

            @Nullable @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            Integer approvers,

            @Nullable @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration approvalTimeout,

            @Nullable ReasonPolicy reason,

            @Nullable @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration timeout,

            @Nullable List<@Valid Rule> rules) {

        public McpToolOverride {
            match = match == null ? List.of() : List.copyOf(match);
        }
    }

    /**
     * An upstream HTTP API the tenant's HTTP tools call (docs/http-tools.md).
     *
     * @param baseUrl             {@code https://…} or {@code http://…} with an optional path prefix
     * @param allowPrivateNetwork whether it may be reached on a non-public address
     * @param tls                 a private CA to trust for it
     * @param timeout             one attempt's time limit, the whole answer included
     * @param maxResponseBytes    the most bytes of an answer's body read
     * @param circuitBreaker      when calls to it stop for a while
     * @param retry               how idempotent requests are retried
     * @param maxConcurrentCalls  calls in flight to it at once on one replica
     * @param auth                the credential Airlock adds to every request, or null for none
     */
    public record Upstream(
            java.net.URI baseUrl,
            @DefaultValue("false") boolean allowPrivateNetwork,
            @DefaultValue @Valid Tls tls,

            @DefaultValue("PT10S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration timeout,

            @DefaultValue("1MB") DataSize maxResponseBytes,
            @DefaultValue @Valid CircuitBreaker circuitBreaker,
            @DefaultValue @Valid Retry retry,

            @DefaultValue("16") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int maxConcurrentCalls,

            @Valid Auth auth) {}

    /**
     * A private CA to trust for an upstream.
     *
     * @param trustStore         the trust store file, or null for the JDK's trust
     * @param trustStorePassword where its password comes from ({@code env:NAME}, {@code file:/path}), or null for none
     * @param trustStoreType     its type
     */
    public record Tls(
            Path trustStore,
            String trustStorePassword,
            @DefaultValue("PKCS12") String trustStoreType) {}

    /**
     * An upstream's circuit breaker.
     *
     * @param failureRateThreshold  percentage of failed calls that opens it
     * @param slowCallDuration      a call at least this long is slow
     * @param slowCallRateThreshold percentage of slow calls that opens it
     * @param minimumCalls          calls needed before the rates count
     * @param slidingWindowSize     calls the rates are computed over
     * @param waitInOpenState       how long it stays open
     */
    public record CircuitBreaker(
            @DefaultValue("50")
            @jakarta.validation.constraints.DecimalMin(value = "1", message = PERCENTAGE)
            @jakarta.validation.constraints.DecimalMax(value = "100", message = PERCENTAGE)
            float failureRateThreshold,

            @DefaultValue("PT5S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration slowCallDuration,

            @DefaultValue("100")
            @jakarta.validation.constraints.DecimalMin(value = "1", message = PERCENTAGE)
            @jakarta.validation.constraints.DecimalMax(value = "100", message = PERCENTAGE)
            float slowCallRateThreshold,

            @DefaultValue("10") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int minimumCalls,

            @DefaultValue("20") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int slidingWindowSize,

            @DefaultValue("PT30S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration waitInOpenState) {}

    /**
     * How an upstream's idempotent requests are retried.
     *
     * @param maxAttempts attempts in all, the first included
     * @param backoff     the wait before the second attempt; each later one doubles
     */
    public record Retry(
            @DefaultValue("3")
            @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            @jakarta.validation.constraints.Max(value = 10, message = "must be at most 10")
            int maxAttempts,

            @DefaultValue("PT0.2S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration backoff) {}

    /**
     * The credential added to every request to an upstream; its secret values come from the
     * gateway's environment or files and are never shown, logged or stored.
     *
     * @param type       {@code bearer}, {@code basic} or {@code header}
     * @param token      bearer: where the token comes from
     * @param username   basic: the user name (not secret)
     * @param password   basic: where the password comes from
     * @param headerName header: the header's name
     * @param value      header: where its value comes from
     */
    public record Auth(
            AuthType type, String token, String username, String password, String headerName, String value) {}

    /** How an upstream's credential is sent. */
    public enum AuthType {
        /** {@code Authorization: Bearer <token>}. */
        BEARER,
        /** {@code Authorization: Basic <base64(username:password)>}. */
        BASIC,
        /** A header of the upstream's choosing, such as {@code X-Api-Key}. */
        HEADER
    }

    /**
     * A policy rule of a tool (docs/policy.md): when {@code when} holds for a request, the rule's
     * settings decide; each one left out is the tool's own.
     *
     * @param when            a CEL expression over {@code args}, {@code agent}, {@code tenant}, {@code tool} and {@code now}
     * @param approval        auto, required or deny
     * @param approvers       distinct approvals needed
     * @param reason          required or optional: whether approving needs a reason
     * @param approvalTimeout how long the approval request waits
     * @param notify          the approver group told of the request (docs/approvals.md#channels)
     */
    public record Rule(
            String when,
            ApprovalMode approval,
            @Min(value = 1, message = MUST_BE_AT_LEAST_1) Integer approvers,
            ReasonPolicy reason,

            @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration approvalTimeout,

            @Name("notify") @Nullable String notifyGroup) {}

    /**
     * What makes a tool an HTTP tool: one request to one of the tenant's upstreams.
     *
     * @param upstream   the upstream's name
     * @param method     the method
     * @param path       appended to the base URL's path; {@code {param}} is percent-encoded as part of one segment
     * @param query      query parameters; {@code {param}} in a value is percent-encoded
     * @param headers    headers; {@code {param}} in a value may hold no control character
     * @param body       a JSON template: {@code {param}} where a JSON value stands becomes a typed JSON value
     * @param idempotent whether a request of a method that is not idempotent may be retried too
     */
    public record Http(
            String upstream,
            @DefaultValue("GET") String method,
            @DefaultValue("/") String path,
            Map<String, String> query,
            Map<String, String> headers,
            String body,
            @DefaultValue("false") boolean idempotent) {

        public Http {
            query = query == null ? Map.of() : query;
            headers = headers == null ? Map.of() : headers;
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
            @DefaultValue("PT60S") Duration maxWait) {}

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
            @Nullable Path bwrapPath,
            @DefaultValue("65534") int hostUid,
            @DefaultValue("65534") int hostGid,
            @Nullable Path workDir,
            @Nullable Path cgroup) {}

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
     * @param nodeLockWait       how long a starting replica waits for its node id's lock, held by a session PostgreSQL
     *                           has not yet found dead (a host that crashed), before it stops its start
     * @param spoolLeaseLimit    how long a replica keeps the lease of a run whose result waits in its spool; after that
     *                           the run's lease runs out (it ends INTERRUPTED) while the result is still written when
     *                           the database takes it
     * @param waitRecheckInterval while this replica hears the database's announcements of runs' ends, how often a
     *                           request waiting for a run's end reads the run's state all the same (without them, it
     *                           reads it every 200 ms)
     */
    public record Executor(
            @DefaultValue("PT0.5S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration pollInterval,

            @DefaultValue("PT0.25S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration cancelPollInterval,

            @DefaultValue("PT5S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration retryInterval,

            @DefaultValue("PT30S") @DurationMin(seconds = 1, message = "must be at least PT1S")
            Duration leaseTtl,

            @DefaultValue("PT25S") @DurationMin(nanos = 0, message = "must not be negative")
            Duration drainTimeout,

            @Nullable Path spoolDir,

            @DefaultValue("PT0.5S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration leaseCheckInterval,

            @DefaultValue("PT60S") @DurationMin(nanos = 0, message = "must not be negative")
            Duration nodeLockWait,

            @DefaultValue("PT10M") @DurationMin(seconds = 1, message = "must be at least PT1S")
            Duration spoolLeaseLimit,

            @DefaultValue("PT5S") @DurationMin(millis = 200, message = "must be at least PT0.2S")
            Duration waitRecheckInterval) {}

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
    public record Mcp(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("PT50S") Duration callWait,

            @DefaultValue("20000") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int maxText,

            List<String> allowedOrigins) {

        public Mcp {
            if (callWait == null
                    || callWait.isNegative()
                    || callWait.isZero()
                    || callWait.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new InvalidConfigurationException("airlock.mcp.call-wait", "must be positive and at most PT10M");
            }
            if (callWait.toMillis() % 1000 != 0) {
                throw new InvalidConfigurationException("airlock.mcp.call-wait", "must be whole seconds");
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
            boolean bare = uri != null
                    && uri.getScheme() != null
                    && uri.getHost() != null
                    && uri.getRawUserInfo() == null
                    && (uri.getRawPath() == null || uri.getRawPath().isEmpty())
                    && uri.getRawQuery() == null
                    && uri.getRawFragment() == null
                    && !origin.contains("*");
            if (!bare) {
                throw new InvalidConfigurationException(
                        key,
                        "'" + value
                                + "' is not an origin: write scheme://host[:port] as browsers send it, without path, slash or wildcard");
            }
            return origin;
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
    public record Limits(
            @DefaultValue("8") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int concurrentRuns,

            @DefaultValue("120") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int runsPerMinutePerAgent,

            @DefaultValue("100") @PositiveOrZero(message = "must be 0 (no request waits) or more")
            int concurrentWaits,

            @DefaultValue("1200") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int readsPerMinutePerAgent,

            @DefaultValue("50") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int pendingApprovalsPerAgent) {}

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
     * @param http              for an HTTP tool (instead of {@code argv}): the request it sends
     * @param rules             policy rules over the request, in order; the first that holds decides
     * @param notify            the approver group told of its requests unless a rule names another
     *                          (docs/approvals.md#channels); none: the people's configuration routes by tool
     */
    public record Tool(
            String description,
            List<String> argv,
            Map<String, Parameter> parameters,
            @DefaultValue("auto") ApprovalMode approval,

            @DefaultValue("1") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int approvers,

            @DefaultValue("PT1H") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration approvalTimeout,

            @DefaultValue("optional") ReasonPolicy reason,

            @DefaultValue("PT30S") @DurationMin(millis = 1, message = MUST_BE_POSITIVE)
            Duration timeout,

            @DefaultValue("1MB") DataSize maxRetainedBytes,
            @DefaultValue("64MB") DataSize maxObservedBytes,
            @Nullable String workingDir,
            Map<String, String> env,
            Map<String, String> secrets,
            @DefaultValue @Valid ToolSandbox sandbox,
            Annotations annotations,
            @Valid Http http,
            List<@Valid Rule> rules,
            @Name("notify") @Nullable String notifyGroup) {

        public Tool {
            rules = rules == null ? List.of() : List.copyOf(rules);
            argv = argv == null ? List.of() : argv;
            parameters = parameters == null ? Map.of() : parameters;
            env = env == null ? Map.of() : env;
            secrets = secrets == null ? Map.of() : secrets;
        }
    }

    /**
     * One tool's sandbox: what it may reach beyond its working directory and what it may use.
     *
     * @param network        whether the run shares the host's network (otherwise it has only a loopback of its own)
     * @param readOnlyPaths  absolute host paths mounted read-only at the same place
     * @param writablePaths  absolute host paths mounted read-write at the same place
     * @param maxProcesses   processes of the run at once, the sandbox's own init included (RLIMIT_NPROC)
     * @param maxMemory      memory of the run: its cgroup's memory.max, or without a cgroup each process's address space (RLIMIT_AS)
     * @param maxFileSize    the largest file a process may write (RLIMIT_FSIZE)
     * @param maxOpenFiles   open files of each process (RLIMIT_NOFILE)
     * @param tmpSize        the size of the run's private {@code /tmp}, and of its {@code /dev/shm}
     */
    public record ToolSandbox(
            @DefaultValue("false") boolean network,
            List<String> readOnlyPaths,
            List<String> writablePaths,

            @DefaultValue("256") @Min(value = 2, message = "must be at least 2 (the sandbox's init counts as one)")
            int maxProcesses,

            @DefaultValue("1GB") DataSize maxMemory,
            @DefaultValue("1GB") DataSize maxFileSize,

            @DefaultValue("1024") @Min(value = 1, message = MUST_BE_AT_LEAST_1)
            int maxOpenFiles,

            @DefaultValue("256MB") DataSize tmpSize) {

        public ToolSandbox {
            readOnlyPaths = readOnlyPaths == null ? List.of() : readOnlyPaths;
            writablePaths = writablePaths == null ? List.of() : writablePaths;
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
    public record Annotations(
            Boolean readOnlyHint, Boolean destructiveHint, Boolean idempotentHint, Boolean openWorldHint) {}

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
            @DefaultValue("false") boolean allowLeadingDash) {}
}
