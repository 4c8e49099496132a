package dev.airlock.gateway.tool;

import dev.airlock.gateway.capture.SandboxPolicy;
import dev.airlock.gateway.policy.ToolPolicy;
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
 * @param argv              the argument-vector template
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
 */
public record Tool(
        String tenant,
        String name,
        @Nullable String description,
        ArgvTemplate argv,
        Map<String, ToolParameter> parameters,
        ToolPolicy policy,
        Duration timeout,
        long maxRetainedBytes,
        long maxObservedBytes,
        @Nullable Path workingDir,
        Map<String, String> env,
        Map<String, String> secrets,
        SandboxPolicy sandbox,
        ToolAnnotations annotations) {

    /** What the run records as the definition it was requested under. Holds no secret values. */
    public ToolSnapshot snapshot() {
        Map<String, Map<String, Object>> schemas = new TreeMap<>();
        parameters.forEach((n, p) -> schemas.put(n, p.jsonSchema()));
        return new ToolSnapshot(
                name,
                argv.source(),
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
                sandbox);
    }

    /** The JSON Schema of the tool's arguments object. */
    public Map<String, Object> argumentsSchema() {
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
