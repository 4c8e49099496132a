package dev.airlock.gateway.tool;

import dev.airlock.kernel.problem.InvalidRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * An agent's arguments checked against a tool's parameters, with the argument vector they render.
 *
 * @param values  the checked values by name (defaults filled in), sorted
 * @param argv    the exact argument vector that will run; empty for an HTTP tool
 * @param request the exact request an HTTP tool sends (credentials excepted); null for a process
 * @param mcp     the exact call an upstream MCP tool makes; null otherwise
 */
public record ToolArguments(
        Map<String, Object> values,
        List<String> argv,
        @Nullable RenderedRequest request,
        @Nullable McpCallRequest mcp) {

    /**
     * Checks {@code arguments} against {@code tool}: unknown, missing and ill-typed arguments are
     * all reported at once.
     *
     * @throws InvalidRequest listing every problem
     */
    public static ToolArguments check(Tool tool, @Nullable Map<String, Object> arguments) {
        McpTarget target = tool.mcp();
        if (target != null) {
            Map<String, Object> values = SchemaArguments.check(tool, target, arguments);
            return new ToolArguments(
                    values,
                    List.of(),
                    null,
                    new McpCallRequest(target.server(), target.tool(), target.definitionSha256(), values));
        }
        Map<String, Object> given = arguments == null ? Map.of() : arguments;
        List<String> errors = new ArrayList<>();
        for (String name : new java.util.TreeSet<>(given.keySet())) {
            if (!tool.parameters().containsKey(name)) {
                errors.add("arguments." + name + ": unknown parameter; parameters are "
                        + new java.util.TreeSet<>(tool.parameters().keySet()));
            }
        }
        Map<String, Object> values = new TreeMap<>();
        tool.parameters().forEach((name, parameter) -> {
            Object raw = given.get(name);
            if (raw == null) {
                if (parameter.required()) {
                    errors.add("arguments." + name + ": required");
                } else {
                    values.put(name, parameter.defaultValue());
                }
                return;
            }
            Object checked = parameter.check(raw, errors);
            if (checked != null) {
                values.put(name, checked);
            }
        });
        if (!errors.isEmpty()) {
            throw InvalidRequest.arguments(tool.name(), errors);
        }
        HttpTemplate http = tool.http();
        HttpUpstream upstream = tool.upstream();
        if (http != null && upstream != null) {
            return new ToolArguments(values, List.of(), http.render(tool.name(), upstream.baseUrl(), values), null);
        }
        return new ToolArguments(
                values, java.util.Objects.requireNonNull(tool.argv(), "argv").render(values), null, null);
    }
}
