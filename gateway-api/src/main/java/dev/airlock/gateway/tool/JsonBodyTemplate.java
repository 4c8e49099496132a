package dev.airlock.gateway.tool;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON body with parameters: {@code {name}} stands where a JSON value stands (an object's value,
 * an array's element, the whole body) and becomes a typed JSON value, a string, a number or a
 * boolean. A value is never spliced into a string, so an argument can never close a string or add
 * a key: a placeholder inside a JSON string stops the start.
 */
final class JsonBodyTemplate {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)}");
    /** Stands for a placeholder while the template is parsed; no configured string holds it. */
    private static final String MARK = "\uE000airlock-parameter\uE000";

    private final String source;
    private final JsonNode tree;
    private final Set<String> parameters;

    private JsonBodyTemplate(String source, JsonNode tree, Set<String> parameters) {
        this.source = source;
        this.tree = tree;
        this.parameters = Set.copyOf(parameters);
    }

    /**
     * Parses the template.
     *
     * @throws InvalidConfigurationException naming {@code key} for JSON that does not parse, an unknown
     *                                       parameter or a placeholder inside a string
     */
    static JsonBodyTemplate parse(String source, Set<String> known, String key) {
        StringBuilder json = new StringBuilder();
        Set<String> used = new LinkedHashSet<>();
        boolean inString = false;
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (inString) {
                if (c == '\\' && i + 1 < source.length()) {
                    json.append(c).append(source.charAt(++i));
                    continue;
                }
                if (c == '"') {
                    inString = false;
                } else if (c == '{') {
                    Matcher m = PLACEHOLDER.matcher(source).region(i, source.length());
                    if (m.lookingAt()) {
                        String name = m.group(1);
                        throw new InvalidConfigurationException(
                                key,
                                known.contains(name)
                                        ? "{" + name + "} is inside a JSON string; a parameter is a whole JSON value"
                                                + " (write {" + name + "}, not \"{" + name
                                                + "}\"), so that its value can never be spliced into text"
                                        // Most likely a misspelt parameter: refused rather than sent as text.
                                        : "{" + name + "} inside a JSON string names no parameter (parameters are "
                                                + known + "); for literal braces write \\u007b instead of '{'");
                    }
                }
                json.append(c);
                continue;
            }
            if (c == '"') {
                inString = true;
                json.append(c);
                continue;
            }
            if (c == '{') {
                Matcher m = PLACEHOLDER.matcher(source).region(i, source.length());
                if (m.lookingAt()) {
                    String name = m.group(1);
                    if (!known.contains(name)) {
                        throw new InvalidConfigurationException(
                                key, "unknown parameter {" + name + "} in the body; parameters are " + known);
                    }
                    used.add(name);
                    json.append('"').append(MARK).append(name).append('"');
                    i = m.end() - 1;
                    continue;
                }
            }
            json.append(c);
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(json.toString());
        } catch (JacksonException e) {
            throw new InvalidConfigurationException(
                    key, "is not JSON with {parameter} values: " + e.getOriginalMessage());
        }
        if (tree == null || tree.isMissingNode()) {
            throw new InvalidConfigurationException(key, "is empty; leave body out for a request without one");
        }
        noPlaceholderAsKey(tree, key);
        return new JsonBodyTemplate(source, tree, used);
    }

    /** Refuses a placeholder where an object's key stands: a parameter is a value, never a name. */
    private static void noPlaceholderAsKey(JsonNode node, String key) {
        if (node instanceof ObjectNode object) {
            for (var property : object.properties()) {
                String name = property.getKey();
                if (name.startsWith(MARK)) {
                    throw new InvalidConfigurationException(
                            key,
                            "{" + name.substring(MARK.length()) + "} stands where an object's key does; a parameter"
                                    + " is a whole JSON value, never a key");
                }
                noPlaceholderAsKey(property.getValue(), key);
            }
        } else if (node.isArray()) {
            node.forEach(element -> noPlaceholderAsKey(element, key));
        }
    }

    Set<String> parameters() {
        return parameters;
    }

    String source() {
        return source;
    }

    /** The body for checked values: each placeholder replaced by its value as a typed JSON value. */
    JsonNode render(Map<String, Object> values) {
        return fill(tree, values);
    }

    private static JsonNode fill(JsonNode node, Map<String, Object> values) {
        if (node.isString() && node.asString().startsWith(MARK)) {
            return value(values.get(node.asString().substring(MARK.length())));
        }
        if (node instanceof ObjectNode object) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            object.properties().forEach(e -> copy.set(e.getKey(), fill(e.getValue(), values)));
            return copy;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            array.forEach(element -> copy.add(fill(element, values)));
            return copy;
        }
        return node;
    }

    private static JsonNode value(@Nullable Object value) {
        return switch (value) {
            case Boolean b -> JsonNodeFactory.instance.booleanNode(b);
            case Long l -> JsonNodeFactory.instance.numberNode(l);
            case Integer n -> JsonNodeFactory.instance.numberNode(n);
            case null -> JsonNodeFactory.instance.nullNode();
            default -> JsonNodeFactory.instance.stringNode(value.toString());
        };
    }

    /** The compact bytes sent. */
    static byte[] bytes(JsonNode body) {
        return JSON.writeValueAsBytes(body);
    }

    /** The body as people read it. */
    static String pretty(JsonNode body) {
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(body);
    }
}
