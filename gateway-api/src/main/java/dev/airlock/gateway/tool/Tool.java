package dev.airlock.gateway.tool;

import dev.airlock.gateway.capture.SandboxPolicy;
import dev.airlock.rules.ToolPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A compiled tool of one tenant: everything needed to validate a request and to run it.
 *
 * @param tenant            the tenant
 * @param name              the tool name
 * @param description       shown to agents, may be null
 * @param argv              the argument-vector template of a process; null for an HTTP tool
 * @param parameters        typed parameters by name
 * @param policy            the approval policy
 * @param timeout           the run's time limit
 * @param maxRetainedBytes  per stream, bytes kept for transcript and raw artifact
 * @param maxObservedBytes  per stream, bytes after which the process tree is killed
 * @param workingDir        the working directory, or null for a fresh empty one per run
 * @param env               extra child environment
 * @param secrets           child environment name → where the value comes from ({@code env:}, {@code file:} or a variable name)
 * @param sandbox           what its runs may reach and use in their sandbox
 * @param annotations       hints for MCP clients, {@link ToolAnnotations#NONE} when none are configured
 * @param http              the request of an HTTP tool; null for a process
 * @param upstream          the upstream an HTTP tool calls; null for a process
 * @param rules             policy rules over its requests; {@code policy} decides when none holds
 * @param mcp               the upstream MCP server's tool it calls; null for a process or an HTTP tool
 */
public record Tool(
        String tenant,
        String name,
        @Nullable String description,
        @Nullable ArgvTemplate argv,
        Map<String, ToolParameter> parameters,
        ToolPolicy policy,
        Duration timeout,
        long maxRetainedBytes,
        long maxObservedBytes,
        @Nullable Path workingDir,
        Map<String, String> env,
        Map<String, String> secrets,
        SandboxPolicy sandbox,
        ToolAnnotations annotations,
        @Nullable HttpTemplate http,
        @Nullable HttpUpstream upstream,
        dev.airlock.rules.ToolRules rules,
        @Nullable McpTarget mcp) {

    public Tool {
        int kinds = (argv == null ? 0 : 1) + (http == null ? 0 : 1) + (mcp == null ? 0 : 1);
        if (kinds != 1 || (http == null) != (upstream == null)) {
            throw new IllegalArgumentException(
                    "a tool runs a process (argv), sends a request (http and upstream) or calls an MCP server's tool");
        }
    }

    /** What the tool's action is. */
    public dev.airlock.persistence.run.ActionKind kind() {
        if (mcp != null) {
            return dev.airlock.persistence.run.ActionKind.MCP;
        }
        return http == null
                ? dev.airlock.persistence.run.ActionKind.PROCESS
                : dev.airlock.persistence.run.ActionKind.HTTP;
    }

    /** What the run records as the definition it was requested under. Holds no secret values. */
    public ToolSnapshot snapshot() {
        Map<String, Map<String, Object>> schemas = new TreeMap<>();
        parameters.forEach((n, p) -> schemas.put(n, p.jsonSchema()));
        return new ToolSnapshot(
                name,
                argv == null ? List.of() : argv.source(),
                schemas,
                policy.mode().name(),
                policy.approvers(),
                policy.approvalTimeout().toString(),
                policy.approveReasonRequired(),
                timeout.toString(),
                maxRetainedBytes,
                maxObservedBytes,
                workingDir == null ? null : workingDir.toString(),
                new TreeMap<>(env),
                new TreeMap<>(secrets),
                argv != null ? sandbox : null,
                http == null ? null : http.definition(),
                upstream,
                rules.size() == 0 ? null : rules.definition(),
                description,
                mcp == null ? null : mcp.definition());
    }

    /** The JSON Schema of the tool's arguments object. */
    public Map<String, Object> argumentsSchema() {
        if (mcp != null) {
            return mcp.inputSchema();
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        parameters.forEach((n, p) -> properties.put(n, p.jsonSchema()));
        List<String> required = parameters.values().stream()
                .filter(ToolParameter::required)
                .map(ToolParameter::name)
                .toList();
        return objectSchema(properties, required);
    }

    /** A JSON Schema object with exactly {@code properties}, of which {@code required} must be given. */
    public static Map<String, Object> objectSchema(Map<String, Object> properties, List<String> required) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", required);
        schema.put("additionalProperties", false);
        return schema;
    }
}
