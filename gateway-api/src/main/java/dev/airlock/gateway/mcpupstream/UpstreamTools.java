package dev.airlock.gateway.mcpupstream;

import dev.airlock.gateway.capture.SandboxPolicy;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.tool.McpTarget;
import dev.airlock.gateway.tool.SchemaArguments;
import dev.airlock.gateway.tool.Tool;
import dev.airlock.gateway.tool.ToolAnnotations;
import dev.airlock.gateway.tool.ToolCompiler;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.digest.Sha256;
import dev.airlock.rules.ToolPolicy;
import dev.airlock.sanitizer.TerminalSanitizer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a tool an upstream MCP server lists into what Airlock pins and offers: its canonical
 * definition and that definition's SHA-256, whether the server's settings offer it at all, and the
 * {@link Tool} agents see as {@code <server>.<tool>}, with the settings that apply to it.
 */
final class UpstreamTools {

    /** What MCP allows in a tool name. */
    static final Pattern TOOL_NAME = Pattern.compile(
            "[A-Za-z0-9_.-]{1," + dev.airlock.gateway.tool.ToolCatalog.MAX_UPSTREAM_TOOL_NAME_LENGTH + "}");
    /** The separator between a server's name and its tool's name in the names agents see. */
    static final String SEPARATOR = ".";

    static final int MAX_DESCRIPTION = 2000;
    static final int MAX_TITLE = 200;

    private static final JsonMapper CANONICAL = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();
    private static final List<String> DEFINITION_FIELDS =
            List.of("name", "title", "description", "inputSchema", "outputSchema", "annotations");

    private UpstreamTools() {}

    /**
     * A tool as listed, reduced to what defines it.
     *
     * @param name      its name on the server
     * @param canonical its canonical definition (the fields that define it, keys sorted)
     * @param sha256    SHA-256 of {@code canonical}
     * @param node      the listed tool
     */
    record Listed(String name, String canonical, String sha256, JsonNode node) {}

    /** The listed tool's definition, or null when it has no usable name. */
    static @Nullable Listed listed(JsonNode tool) {
        JsonNode name = tool.get("name");
        if (name == null
                || !name.isString()
                || !TOOL_NAME.matcher(name.asString()).matches()) {
            return null;
        }
        Map<String, Object> definition = new LinkedHashMap<>();
        for (String field : DEFINITION_FIELDS) {
            JsonNode value = tool.get(field);
            if (value != null && !value.isNull()) {
                definition.put(field, CANONICAL.treeToValue(value, Object.class));
            }
        }
        String canonical = CANONICAL.writeValueAsString(definition);
        return new Listed(name.asString(), canonical, Sha256.hex(canonical), tool);
    }

    /** Whether the server's {@code tools.include} and {@code tools.exclude} offer {@code name}. */
    static boolean included(AgentSettings.McpTools tools, String name) {
        return tools.include().stream().anyMatch(g -> dev.airlock.kernel.config.Globs.matches(g, name))
                && tools.exclude().stream().noneMatch(g -> dev.airlock.kernel.config.Globs.matches(g, name));
    }

    /** The first of the server's {@code tools.overrides} that matches the upstream tool {@code name}, or null. */
    private static AgentSettings.@Nullable McpToolOverride overrideOf(AgentSettings.McpServer settings, String name) {
        return settings.tools().overrides().stream()
                .filter(o -> o.match().stream().anyMatch(g -> dev.airlock.kernel.config.Globs.matches(g, name)))
                .findFirst()
                .orElse(null);
    }

    /**
     * Whether the server's settings (or the first override that matches the upstream tool {@code name})
     * now refuse every call of it: approval {@code deny} and no rules that could allow one. Read from the
     * settings alone, not from a listing, so that it holds whether or not the server answers.
     */
    static boolean deniedOutright(AgentSettings.McpServer settings, String name) {
        AgentSettings.McpToolOverride override = overrideOf(settings, name);
        dev.airlock.kernel.config.ApprovalMode mode =
                override != null && override.approval() != null ? override.approval() : settings.approval();
        List<AgentSettings.Rule> rules =
                override != null && override.rules() != null ? override.rules() : settings.rules();
        return mode == dev.airlock.kernel.config.ApprovalMode.DENY && rules.isEmpty();
    }

    /**
     * The tool agents see for {@code listed}, with the server's settings (or the first override
     * that matches it); its runs record {@code settingsSha256}, the server's {@link ServerSettings#sha256}.
     *
     * @throws InvalidConfigurationException naming the key, when its schema cannot be used or a rule does not
     *     type-check against it
     */
    static Tool compile(
            String tenant,
            String server,
            AgentSettings.McpServer settings,
            String settingsSha256,
            String key,
            Listed listed) {
        String name = server + SEPARATOR + listed.name();
        if (name.length() > 128) {
            throw new InvalidConfigurationException(key, "the tool name " + name + " is longer than 128 characters");
        }
        JsonNode node = listed.node();
        JsonNode input = node.get("inputSchema");
        if (input == null || !input.isObject()) {
            throw new InvalidConfigurationException(key, "tool " + listed.name() + " has no input schema object");
        }
        String unshowable = unshowable(input);
        if (unshowable != null) {
            throw new InvalidConfigurationException(key, "tool " + listed.name() + ": its input schema " + unshowable);
        }
        Map<String, Object> inputSchema = CANONICAL.treeToValue(input, new TypeReference<Map<String, Object>>() {});
        String problem = SchemaArguments.problem(inputSchema);
        if (problem != null) {
            throw new InvalidConfigurationException(key, "tool " + listed.name() + ": " + problem);
        }
        JsonNode output = node.get("outputSchema");
        Map<String, Object> outputSchema = output == null || !output.isObject()
                ? null
                : CANONICAL.treeToValue(output, new TypeReference<Map<String, Object>>() {});
        AgentSettings.McpToolOverride override = overrideOf(settings, listed.name());
        String overrideKey = override == null
                ? key
                : key + ".tools.overrides[" + settings.tools().overrides().indexOf(override) + "]";
        ToolPolicy policy;
        try {
            policy = new ToolPolicy(
                    override != null && override.approval() != null ? override.approval() : settings.approval(),
                    override != null && override.approvers() != null ? override.approvers() : settings.approvers(),
                    override != null && override.approvalTimeout() != null
                            ? override.approvalTimeout()
                            : settings.approvalTimeout(),
                    (override != null && override.reason() != null ? override.reason() : settings.reason())
                            == dev.airlock.kernel.config.ReasonPolicy.REQUIRED);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException(overrideKey, String.valueOf(e.getMessage()));
        }
        List<AgentSettings.Rule> rules =
                override != null && override.rules() != null ? override.rules() : settings.rules();
        dev.airlock.rules.ToolRules compiled =
                ToolCompiler.rulesOf(name, ruleTypes(inputSchema), rules, policy, overrideKey + ".rules");
        return new Tool(
                tenant,
                name,
                text(node.get("description"), MAX_DESCRIPTION),
                null,
                Map.of(),
                policy,
                override != null && override.timeout() != null ? override.timeout() : settings.timeout(),
                settings.maxRetainedBytes().toBytes(),
                settings.maxResponseBytes().toBytes(),
                null,
                Map.of(),
                Map.of(),
                SandboxPolicy.DEFAULTS,
                annotations(node.get("annotations")),
                null,
                null,
                compiled,
                new McpTarget(
                        server,
                        listed.name(),
                        listed.sha256(),
                        settingsSha256,
                        inputSchema,
                        outputSchema,
                        text(node.get("title"), MAX_TITLE),
                        dev.airlock.gateway.tool.ArgumentSchema.compile(inputSchema)));
    }

    /** The most characters of an input schema (as canonical JSON) that agents are shown. */
    static final int MAX_SCHEMA_CHARS = 64 * 1024;

    /**
     * The longest canonical definition (name, title, description, schemas, annotations) a listed tool
     * may have to be recorded at all: room for both schemas at {@link #MAX_SCHEMA_CHARS}. A longer one is
     * neither recorded nor offered.
     */
    static final int MAX_DEFINITION_CHARS = 160 * 1024;

    /**
     * Why an input schema cannot be shown to agents as it is, or null: agents read it whole (every
     * property name, description, enum and default), so text in it that the sanitizer would change
     * (terminal controls, bidi overrides, invisible and tag characters hiding instructions) or a
     * schema past {@value #MAX_SCHEMA_CHARS} characters keeps the tool from being offered, where a
     * tool's description would be cut and sanitized.
     */
    static @Nullable String unshowable(JsonNode schema) {
        if (CANONICAL.writeValueAsString(schema).length() > MAX_SCHEMA_CHARS) {
            return "is longer than " + MAX_SCHEMA_CHARS + " characters";
        }
        java.util.ArrayDeque<JsonNode> left = new java.util.ArrayDeque<>(List.of(schema));
        while (!left.isEmpty()) {
            JsonNode node = left.pop();
            if (node.isString() && !inert(node.asString())) {
                return "holds text with terminal controls or invisible characters";
            }
            if (node.isObject()) {
                for (var field : node.properties()) {
                    if (!inert(field.getKey())) {
                        return "holds a property name with terminal controls or invisible characters";
                    }
                    left.push(field.getValue());
                }
            } else if (node.isArray()) {
                node.forEach(left::push);
            }
        }
        return null;
    }

    /** Whether the sanitizer leaves {@code text} as it is (a CR LF line end aside). */
    private static boolean inert(String text) {
        String lines = text.replace("\r\n", "\n");
        return TerminalSanitizer.sanitize(lines.getBytes(StandardCharsets.UTF_8))
                .equals(lines);
    }

    /** What rules may ask about: the schema's top-level string, integer and boolean properties. */
    private static Map<String, Class<?>> ruleTypes(Map<String, Object> schema) {
        Map<String, Class<?>> types = new LinkedHashMap<>();
        if (schema.get("properties") instanceof Map<?, ?> properties) {
            properties.forEach((n, p) -> {
                if (p instanceof Map<?, ?> property
                        && n instanceof String field
                        && field.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    Object type = property.get("type");
                    if ("string".equals(type)) {
                        types.put(field, String.class);
                    } else if ("integer".equals(type)) {
                        types.put(field, Long.class);
                    } else if ("boolean".equals(type)) {
                        types.put(field, Boolean.class);
                    }
                }
            });
        }
        return types;
    }

    /** Untrusted text from the server: control traffic and invisible Unicode removed, bounded; null if absent. */
    static @Nullable String text(@Nullable JsonNode value, int limit) {
        if (value == null || !value.isString()) {
            return null;
        }
        String clean = TerminalSanitizer.sanitize(value.asString().getBytes(StandardCharsets.UTF_8))
                .strip();
        return clean.isEmpty() ? null : McpChannel.cut(clean, limit);
    }

    private static ToolAnnotations annotations(@Nullable JsonNode hints) {
        if (hints == null || !hints.isObject()) {
            return ToolAnnotations.NONE;
        }
        return new ToolAnnotations(
                bool(hints.get("readOnlyHint")),
                bool(hints.get("destructiveHint")),
                bool(hints.get("idempotentHint")),
                bool(hints.get("openWorldHint")));
    }

    private static @Nullable Boolean bool(@Nullable JsonNode value) {
        return value != null && value.isBoolean() ? value.asBoolean() : null;
    }
}
