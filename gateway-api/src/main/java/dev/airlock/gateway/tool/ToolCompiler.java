package dev.airlock.gateway.tool;

import dev.airlock.gateway.capture.MountRules;
import dev.airlock.gateway.capture.SandboxPolicy;
import dev.airlock.gateway.capture.SecretReference;
import dev.airlock.gateway.capture.WorkArea;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.TenantNames;
import dev.airlock.rules.ToolPolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;

/**
 * Compiles the configured tools of every tenant into a {@link ToolCatalog}, failing fast with the
 * key of the first setting it cannot honour.
 */
public final class ToolCompiler {

    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");
    /** Names with this prefix belong to the MCP endpoint's built-in tools ({@code airlock_status}, ...). */
    public static final String RESERVED_PREFIX = "airlock_";

    private static final Pattern PARAMETER_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    private ToolCompiler() {}

    /** The catalog of every tenant's tools. */
    public static ToolCatalog compile(AirlockProperties shared, AgentSettings settings, TenantNames tenants) {
        return compile(shared, settings, tenants, List.of());
    }

    /**
     * The catalog of every tenant's tools, whose mounts may not reach {@code configuredFiles} either
     * (the files Airlock's configuration comes from, {@link ConfiguredFiles}).
     */
    static ToolCatalog compile(
            AirlockProperties shared,
            AgentSettings settings,
            TenantNames tenants,
            List<MountRules.Reserved> configuredFiles) {
        Map<String, Map<String, Tool>> catalog = new TreeMap<>();
        for (String tenant : tenants.names()) {
            String tenantKey = "airlock.tenants." + tenant;
            if (!NAME.matcher(tenant).matches()) {
                throw new InvalidConfigurationException(tenantKey, "tenant names use a-z, 0-9, '.', '_' and '-'");
            }
            Map<String, Tool> tools = new TreeMap<>();
            Map<String, HttpUpstream> upstreams = new TreeMap<>();
            settings.tenant(tenant)
                    .upstreams()
                    .forEach((name, upstream) ->
                            upstreams.put(name, upstream(name, upstream, tenantKey + ".upstreams." + name)));
            settings.tenant(tenant)
                    .tools()
                    .forEach((name, tool) ->
                            tools.put(name, compile(tenant, name, tool, tenantKey + ".tools." + name, upstreams)));
            catalog.put(tenant, tools);
        }
        return new ToolCatalog(catalog, mountRules(shared, settings, catalog, configuredFiles));
    }

    /** No sandbox may change what another mounts, nor reach Airlock's own files ({@link MountRules}). */
    private static MountRules mountRules(
            AirlockProperties shared,
            AgentSettings settings,
            Map<String, Map<String, Tool>> catalog,
            List<MountRules.Reserved> configuredFiles) {
        List<MountRules.Mount> mounts = new ArrayList<>();
        List<MountRules.Reserved> secretFiles = new ArrayList<>(configuredFiles);
        catalog.forEach((tenant, tools) -> tools.forEach((name, tool) -> {
            String key = "airlock.tenants." + tenant + ".tools." + name;
            mounts.addAll(MountRules.mountsOf(key, tool.sandbox(), tool.workingDir()));
            secretFiles.addAll(MountRules.secretFilesOf(key, tool.secrets()));
        }));
        Path work = settings.sandbox().workDir() != null ? settings.sandbox().workDir() : WorkArea.defaultRoot();
        return MountRules.of(mounts, work, shared.dataDir(), secretFiles);
    }

    static Tool compile(String tenant, String name, AgentSettings.Tool config, String key) {
        return compile(tenant, name, config, key, Map.of());
    }

    /** An upstream as HTTP tools record it; its client settings are checked where the client is made. */
    public static HttpUpstream upstream(String name, AgentSettings.Upstream config, String key) {
        return upstream(name, config, key, key + ".base-url");
    }

    /**
     * As {@link #upstream(String, AgentSettings.Upstream, String)}, for settings whose URL is under
     * another key ({@code urlKey}: an MCP server's {@code url}), so that an error names that key.
     */
    public static HttpUpstream upstream(String name, AgentSettings.Upstream config, String key, String urlKey) {
        if (!NAME.matcher(name).matches()) {
            throw new InvalidConfigurationException(key, "upstream names use a-z, 0-9, '.', '_' and '-'");
        }
        java.net.URI base = config.baseUrl();
        if (base == null
                || !base.isAbsolute()
                || base.getHost() == null
                || !("https".equalsIgnoreCase(base.getScheme()) || "http".equalsIgnoreCase(base.getScheme()))) {
            throw new InvalidConfigurationException(urlKey, "must be an absolute https:// or http:// URL");
        }
        if (base.getRawUserInfo() != null || base.getRawQuery() != null || base.getRawFragment() != null) {
            throw new InvalidConfigurationException(
                    urlKey, "must hold no user information, query or fragment (credentials go in auth)");
        }
        AgentSettings.Auth auth = config.auth();
        HttpUpstream.Auth terms = null;
        if (auth != null) {
            if (auth.type() == null) {
                throw new InvalidConfigurationException(key + ".auth.type", "must be bearer, basic or header");
            }
            onlyKeysOf(auth, key + ".auth");
            terms = switch (auth.type()) {
                case BEARER ->
                    new HttpUpstream.Auth(
                            "bearer",
                            "Authorization",
                            null,
                            Map.of("token", secretSource(auth.token(), key + ".auth.token")));
                case BASIC -> {
                    if (auth.username() == null
                            || auth.username().isEmpty()
                            || auth.username().contains(":")) {
                        throw new InvalidConfigurationException(key + ".auth.username", "must be set and hold no ':'");
                    }
                    yield new HttpUpstream.Auth(
                            "basic",
                            "Authorization",
                            auth.username(),
                            Map.of("password", secretSource(auth.password(), key + ".auth.password")));
                }
                case HEADER -> {
                    if (auth.headerName() == null
                            || !auth.headerName().matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")
                            || HttpTemplate.FORBIDDEN_HEADERS.contains(
                                            auth.headerName().toLowerCase(Locale.ROOT))
                                    && !auth.headerName().equalsIgnoreCase("authorization")) {
                        throw new InvalidConfigurationException(
                                key + ".auth.header-name",
                                "must be a header name" + " that does not frame the message");
                    }
                    yield new HttpUpstream.Auth(
                            "header",
                            auth.headerName(),
                            null,
                            Map.of("value", secretSource(auth.value(), key + ".auth.value")));
                }
            };
        }
        String url = base.toString();
        return new HttpUpstream(
                name,
                url.endsWith("/") ? url.substring(0, url.length() - 1) : url,
                config.allowPrivateNetwork(),
                terms);
    }

    /** Refuses a key of another type's credential (a {@code username} on a bearer upstream): it would be ignored. */
    private static void onlyKeysOf(AgentSettings.Auth auth, String key) {
        Map<String, Boolean> given = new java.util.LinkedHashMap<>();
        given.put("token", auth.token() != null);
        given.put("username", auth.username() != null);
        given.put("password", auth.password() != null);
        given.put("header-name", auth.headerName() != null);
        given.put("value", auth.value() != null);
        Set<String> takes = switch (auth.type()) {
            case BEARER -> Set.of("token");
            case BASIC -> Set.of("username", "password");
            case HEADER -> Set.of("header-name", "value");
        };
        given.forEach((name, set) -> {
            if (set && !takes.contains(name)) {
                throw new InvalidConfigurationException(
                        key + "." + name,
                        "is not a setting of a " + auth.type().name().toLowerCase(Locale.ROOT)
                                + " credential (it takes " + String.join(" and ", new java.util.TreeSet<>(takes))
                                + ")");
            }
        });
    }

    private static String secretSource(@Nullable String source, String key) {
        if (source == null || source.isBlank()) {
            throw new InvalidConfigurationException(
                    key, "must say where the secret comes from: env:NAME or file:/path");
        }
        try {
            SecretReference.parse(source);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException(
                    key,
                    "must be env:VARIABLE, file:/absolute/path or the name of a gateway" + " environment variable ("
                            + e.getMessage() + ")");
        }
        return source;
    }

    static Tool compile(
            String tenant, String name, AgentSettings.Tool config, String key, Map<String, HttpUpstream> upstreams) {
        if (!NAME.matcher(name).matches()) {
            throw new InvalidConfigurationException(key, "tool names use a-z, 0-9, '.', '_' and '-'");
        }
        if (name.startsWith(RESERVED_PREFIX)) {
            throw new InvalidConfigurationException(
                    key,
                    "tool names starting with '" + RESERVED_PREFIX + "' are reserved for Airlock's built-in MCP tools");
        }
        Map<String, ToolParameter> parameters = new LinkedHashMap<>();
        new TreeMap<>(config.parameters())
                .forEach((p, spec) -> parameters.put(p, parameter(p, spec, key + ".parameters." + p)));
        AgentSettings.Http httpConfig = config.http();
        ArgvTemplate argv = null;
        HttpTemplate http = null;
        HttpUpstream upstream = null;
        if (httpConfig != null) {
            if (!config.argv().isEmpty()) {
                throw new InvalidConfigurationException(
                        key, "a tool runs a process (argv) or sends a request (http), not both");
            }
            processSettingsAbsent(config, key);
            if (httpConfig.upstream() == null || !upstreams.containsKey(httpConfig.upstream())) {
                throw new InvalidConfigurationException(
                        key + ".http.upstream",
                        "names no upstream of the tenant; upstreams are "
                                + new java.util.TreeSet<>(upstreams.keySet()));
            }
            upstream = upstreams.get(httpConfig.upstream());
            http = HttpTemplate.parse(
                    httpConfig.upstream(),
                    httpConfig.method(),
                    httpConfig.path(),
                    httpConfig.query(),
                    httpConfig.headers(),
                    httpConfig.body(),
                    httpConfig.idempotent(),
                    parameters.keySet(),
                    key + ".http");
            for (String p : parameters.keySet()) {
                if (!http.parameters().contains(p)) {
                    throw new InvalidConfigurationException(
                            key + ".parameters." + p, "parameter is not used in the request");
                }
            }
            HttpUpstream.Auth credential = upstream.auth();
            if (credential != null) {
                for (String header : httpConfig.headers().keySet()) {
                    if (header.equalsIgnoreCase(credential.headerName())) {
                        throw new InvalidConfigurationException(
                                key + ".http.headers." + header,
                                "is the header upstream " + httpConfig.upstream()
                                        + "'s credential goes in: only its auth sets it");
                    }
                }
            }
        } else {
            argv = ArgvTemplate.parse(config.argv(), parameters.keySet(), key + ".argv");
            for (String p : parameters.keySet()) {
                if (!argv.parameters().contains(p)) {
                    throw new InvalidConfigurationException(key + ".parameters." + p, "parameter is not used in argv");
                }
            }
        }
        ToolPolicy policy;
        try {
            policy = new ToolPolicy(
                    config.approval(),
                    config.approvers(),
                    config.approvalTimeout(),
                    config.reason() == dev.airlock.kernel.config.ReasonPolicy.REQUIRED,
                    config.notifyGroup());
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException(key, String.valueOf(e.getMessage()));
        }
        long retained = config.maxRetainedBytes().toBytes();
        long observed = config.maxObservedBytes().toBytes();
        if (retained < 0 || retained > Integer.MAX_VALUE - 8) {
            throw new InvalidConfigurationException(key + ".max-retained-bytes", "must be between 0 and 2GB");
        }
        if (observed < retained) {
            throw new InvalidConfigurationException(key + ".max-observed-bytes", "must be at least max-retained-bytes");
        }
        checkEnvironment(config.env(), config.secrets(), key);
        String workingDirProblem = config.workingDir() == null ? null : SandboxPolicy.mountProblem(config.workingDir());
        if (workingDirProblem != null) {
            throw new InvalidConfigurationException(
                    key + ".working-dir",
                    workingDirProblem + " (the sandbox mounts the working directory read-write at that path)");
        }
        Path workingDir = config.workingDir() == null ? null : Path.of(config.workingDir());
        return new Tool(
                tenant,
                name,
                config.description(),
                argv,
                Map.copyOf(parameters),
                policy,
                config.timeout(),
                retained,
                observed,
                workingDir,
                Map.copyOf(config.env()),
                Map.copyOf(config.secrets()),
                sandbox(config.sandbox(), key + ".sandbox"),
                annotations(config.annotations(), key + ".annotations"),
                http,
                upstream,
                rules(name, parameters, config.rules(), policy, key + ".rules"),
                null);
    }

    /** The tool's rules, type-checked against its parameters. */
    private static dev.airlock.rules.ToolRules rules(
            String tool,
            Map<String, ToolParameter> parameters,
            List<AgentSettings.Rule> rules,
            ToolPolicy defaults,
            String key) {
        Map<String, Class<?>> types = new LinkedHashMap<>();
        parameters.forEach((n, p) -> types.put(
                n,
                switch (p.type()) {
                    case INTEGER -> Long.class;
                    case BOOLEAN -> Boolean.class;
                    default -> String.class;
                }));
        return rulesOf(tool, types, rules, defaults, key);
    }

    /**
     * Checks a process's extra environment and its environment from secrets: names, values without
     * NUL, secret sources, and no name in both.
     */
    public static void checkEnvironment(Map<String, String> env, Map<String, String> secrets, String key) {
        env.forEach((n, v) -> {
            requireEnvName(n, key + ".env." + n);
            if (v == null || v.indexOf('\0') >= 0) {
                throw new InvalidConfigurationException(key + ".env." + n, "value must be set and contain no NUL");
            }
        });
        secrets.forEach((n, v) -> {
            requireEnvName(n, key + ".secrets." + n);
            try {
                SecretReference.parse(v);
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationException(
                        key + ".secrets." + n,
                        "must be env:VARIABLE, file:/absolute/path or the name of a gateway environment variable ("
                                + e.getMessage() + ")");
            }
            if (env.containsKey(n)) {
                throw new InvalidConfigurationException(key + ".secrets." + n, "also set in env");
            }
        });
    }

    /** A sandbox's settings, checked. */
    public static SandboxPolicy sandboxOf(AgentSettings.ToolSandbox config, String key) {
        return sandbox(config, key);
    }

    /**
     * Policy rules over arguments of the given types ({@code String}, {@code Long} or
     * {@code Boolean} by name), type-checked.
     */
    public static dev.airlock.rules.ToolRules rulesOf(
            String tool, Map<String, Class<?>> types, List<AgentSettings.Rule> rules, ToolPolicy defaults, String key) {
        return dev.airlock.rules.ToolRules.compile(tool, types, specsOf(rules), defaults, key);
    }

    /** Configured rules as the rule compiler reads them. */
    public static List<dev.airlock.rules.RuleSpec> specsOf(List<AgentSettings.Rule> rules) {
        return rules.stream()
                .map(r -> new dev.airlock.rules.RuleSpec(
                        r.when(), r.approval(), r.approvers(), r.reason(), r.approvalTimeout(), r.notifyGroup()))
                .toList();
    }

    /** Settings that only a process uses: on an HTTP tool they would say something that never happens. */
    private static void processSettingsAbsent(AgentSettings.Tool config, String key) {
        AgentSettings.Tool defaults = new org.springframework.boot.context.properties.bind.Binder()
                .bindOrCreate("x", AgentSettings.Tool.class);
        if (config.workingDir() != null) {
            throw new InvalidConfigurationException(key + ".working-dir", "an HTTP tool runs no process");
        }
        if (!config.env().isEmpty()) {
            throw new InvalidConfigurationException(key + ".env", "an HTTP tool runs no process");
        }
        if (!config.secrets().isEmpty()) {
            throw new InvalidConfigurationException(
                    key + ".secrets", "an HTTP tool sends credentials only through its upstream's auth");
        }
        if (!config.sandbox().equals(defaults.sandbox())) {
            throw new InvalidConfigurationException(key + ".sandbox", "an HTTP tool runs no process");
        }
        if (!config.maxObservedBytes().equals(defaults.maxObservedBytes())) {
            throw new InvalidConfigurationException(
                    key + ".max-observed-bytes",
                    "an HTTP tool's answer is bounded by its upstream's max-response-bytes");
        }
    }

    private static SandboxPolicy sandbox(AgentSettings.ToolSandbox config, String key) {
        for (String list : List.of("read-only-paths", "writable-paths")) {
            List<String> paths = list.equals("read-only-paths") ? config.readOnlyPaths() : config.writablePaths();
            for (int i = 0; i < paths.size(); i++) {
                String problem = SandboxPolicy.mountProblem(paths.get(i));
                if (problem != null) {
                    throw new InvalidConfigurationException(key + "." + list + "[" + i + "]", problem);
                }
            }
        }
        for (int i = 0; i < config.writablePaths().size(); i++) {
            if (config.readOnlyPaths().contains(config.writablePaths().get(i))) {
                throw new InvalidConfigurationException(
                        key + ".writable-paths[" + i + "]", "is also in read-only-paths");
            }
        }
        requirePositive(config.maxMemory(), key + ".max-memory");
        requirePositive(config.maxFileSize(), key + ".max-file-size");
        requirePositive(config.tmpSize(), key + ".tmp-size");
        return new SandboxPolicy(
                config.network(),
                config.readOnlyPaths(),
                config.writablePaths(),
                config.maxProcesses(),
                config.maxMemory().toBytes(),
                config.maxFileSize().toBytes(),
                config.maxOpenFiles(),
                config.tmpSize().toBytes());
    }

    private static void requirePositive(DataSize size, String key) {
        if (size == null || size.toBytes() <= 0) {
            throw new InvalidConfigurationException(key, "must be a positive size such as 512MB");
        }
    }

    private static ToolAnnotations annotations(AgentSettings.Annotations config, String key) {
        if (config == null) {
            return ToolAnnotations.NONE;
        }
        if (Boolean.TRUE.equals(config.readOnlyHint())) {
            // The protocol gives these two hints meaning only for tools that change something.
            if (config.destructiveHint() != null) {
                throw new InvalidConfigurationException(
                        key + ".destructive-hint", "a read-only tool destroys nothing; leave it out");
            }
            if (config.idempotentHint() != null) {
                throw new InvalidConfigurationException(
                        key + ".idempotent-hint",
                        "applies only to tools that change something; leave it out for a read-only tool");
            }
        }
        return new ToolAnnotations(
                config.readOnlyHint(), config.destructiveHint(), config.idempotentHint(), config.openWorldHint());
    }

    private static ToolParameter parameter(String name, AgentSettings.Parameter spec, String key) {
        if (!PARAMETER_NAME.matcher(name).matches()) {
            throw new InvalidConfigurationException(key, "parameter names use letters, digits and '_'");
        }
        ParameterType type;
        try {
            type = ParameterType.valueOf(spec.type().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException(
                    key + ".type", "must be string, integer or boolean, not '" + spec.type() + "'");
        }
        Pattern pattern = null;
        if (spec.pattern() != null) {
            if (type != ParameterType.STRING) {
                throw new InvalidConfigurationException(key + ".pattern", "only string parameters take a pattern");
            }
            try {
                pattern = Pattern.compile(spec.pattern());
            } catch (PatternSyntaxException e) {
                throw new InvalidConfigurationException(
                        key + ".pattern", "does not compile: " + e.getDescription() + " near index " + e.getIndex());
            }
        }
        int maxLength = spec.maxLength() == null ? ToolParameter.DEFAULT_MAX_LENGTH : spec.maxLength();
        if (maxLength < 1) {
            throw new InvalidConfigurationException(key + ".max-length", "must be at least 1");
        }
        if ((spec.min() != null || spec.max() != null) && type != ParameterType.INTEGER) {
            throw new InvalidConfigurationException(key, "only integer parameters take min and max");
        }
        if (spec.min() != null && spec.max() != null && spec.min() > spec.max()) {
            throw new InvalidConfigurationException(key + ".min", "must not be greater than max");
        }
        if (spec.values() != null && type != ParameterType.STRING) {
            throw new InvalidConfigurationException(
                    key + ".values", "only string parameters take values (use min and max for an integer)");
        }
        if (spec.values() != null && spec.values().isEmpty()) {
            throw new InvalidConfigurationException(
                    key + ".values", "must list at least one value (leave it out to take any string)");
        }
        List<String> values = spec.values() == null ? List.of() : List.copyOf(spec.values());
        ToolParameter draft = new ToolParameter(
                name,
                type,
                spec.description(),
                pattern,
                maxLength,
                spec.min(),
                spec.max(),
                values,
                null,
                spec.allowLeadingDash());
        Object defaultValue = null;
        if (spec.defaultValue() != null) {
            List<String> errors = new ArrayList<>();
            defaultValue = draft.check(parseDefault(type, spec.defaultValue(), key), errors);
            if (!errors.isEmpty()) {
                throw new InvalidConfigurationException(key + ".default", String.join("; ", errors));
            }
        }
        return new ToolParameter(
                name,
                type,
                spec.description(),
                pattern,
                maxLength,
                spec.min(),
                spec.max(),
                values,
                defaultValue,
                spec.allowLeadingDash());
    }

    private static Object parseDefault(ParameterType type, String text, String key) {
        try {
            return switch (type) {
                case STRING -> text;
                case INTEGER -> Long.parseLong(text.strip());
                case BOOLEAN ->
                    switch (text.strip()) {
                        case "true" -> Boolean.TRUE;
                        case "false" -> Boolean.FALSE;
                        default -> throw new NumberFormatException();
                    };
            };
        } catch (NumberFormatException e) {
            throw new InvalidConfigurationException(key + ".default", "'" + text + "' is not a " + type.jsonName());
        }
    }

    private static void requireEnvName(String name, String key) {
        if (!ENV_NAME.matcher(name).matches()) {
            throw new InvalidConfigurationException(key, "is not an environment variable name");
        }
        if (LOADER_PREFIXES.stream().anyMatch(name::startsWith) || LOADER_NAMES.contains(name)) {
            throw new InvalidConfigurationException(
                    key,
                    "is read by the dynamic loader or the C library of every program started on the host to set"
                            + " up the sandbox (setpriv, bubblewrap), before the sandbox exists; set it inside the"
                            + " run instead (argv: [env, " + name + "=..., program, ...])");
        }
    }

    /**
     * Variables the dynamic loader and the C library read at start (glibc's list of variables it
     * ignores in privileged programs): a run's environment is also the environment of the host's
     * setpriv and bubblewrap, so one of these could load a library a run wrote, on the host.
     */
    private static final List<String> LOADER_PREFIXES = List.of("LD_", "MALLOC_");

    private static final java.util.Set<String> LOADER_NAMES = java.util.Set.of(
            "GCONV_PATH",
            "GETCONF_DIR",
            "GLIBC_TUNABLES",
            "HOSTALIASES",
            "LOCALDOMAIN",
            "LOCPATH",
            "NIS_PATH",
            "NLSPATH",
            "RESOLV_HOST_CONF",
            "RES_OPTIONS");
}
