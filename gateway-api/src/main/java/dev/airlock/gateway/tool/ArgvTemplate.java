package dev.airlock.gateway.tool;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tool's argument vector with parameter placeholders. An element that is exactly
 * {@code {name}} becomes one whole argument; text around a placeholder ({@code --count={count}})
 * is spliced only because the template writes it so. {@code {{} and {@code }}} stand for literal
 * braces. Nothing ever goes through a shell.
 */
public final class ArgvTemplate {

    private final List<String> source;
    private final List<List<Part>> elements;
    private final Set<String> parameters;

    private sealed interface Part {}

    private record Literal(String text) implements Part {}

    private record Placeholder(String parameter) implements Part {}

    private ArgvTemplate(List<String> source, List<List<Part>> elements, Set<String> parameters) {
        this.source = List.copyOf(source);
        this.elements = elements;
        this.parameters = parameters;
    }

    /**
     * Parses {@code argv}, checking every placeholder against {@code known} parameters.
     *
     * @param key the configuration key of the argv list, for error messages
     * @throws InvalidConfigurationException naming the element that is wrong
     */
    public static ArgvTemplate parse(List<String> argv, Set<String> known, String key) {
        if (argv.isEmpty()) {
            throw new InvalidConfigurationException(key, "argv must name at least the program to run");
        }
        List<List<Part>> elements = new ArrayList<>();
        Set<String> used = new LinkedHashSet<>();
        for (int i = 0; i < argv.size(); i++) {
            String element = argv.get(i);
            String where = key + "[" + i + "]";
            if (element == null || element.isEmpty() && i == 0) {
                throw new InvalidConfigurationException(where, "the program must not be empty");
            }
            List<Part> parts = new ArrayList<>();
            StringBuilder literal = new StringBuilder();
            for (int c = 0; c < element.length(); c++) {
                char ch = element.charAt(c);
                if (ch == '{' && c + 1 < element.length() && element.charAt(c + 1) == '{') {
                    literal.append('{');
                    c++;
                } else if (ch == '}' && c + 1 < element.length() && element.charAt(c + 1) == '}') {
                    literal.append('}');
                    c++;
                } else if (ch == '{') {
                    int close = element.indexOf('}', c);
                    if (close < 0) {
                        throw new InvalidConfigurationException(
                                where, "unclosed '{' in \"" + element + "\" (write {{ for a brace)");
                    }
                    String name = element.substring(c + 1, close);
                    if (!known.contains(name)) {
                        throw new InvalidConfigurationException(
                                where,
                                "unknown parameter {" + name + "} in \"" + element + "\"; parameters are " + known);
                    }
                    if (i == 0) {
                        throw new InvalidConfigurationException(where, "the program itself cannot be a parameter");
                    }
                    if (!literal.isEmpty()) {
                        parts.add(new Literal(literal.toString()));
                        literal.setLength(0);
                    }
                    parts.add(new Placeholder(name));
                    used.add(name);
                    c = close;
                } else if (ch == '}') {
                    throw new InvalidConfigurationException(
                            where, "stray '}' in \"" + element + "\" (write }} for a brace)");
                } else {
                    literal.append(ch);
                }
            }
            if (!literal.isEmpty() || parts.isEmpty()) {
                parts.add(new Literal(literal.toString()));
            }
            elements.add(List.copyOf(parts));
        }
        return new ArgvTemplate(argv, List.copyOf(elements), Set.copyOf(used));
    }

    /** The parameters the template uses. */
    public Set<String> parameters() {
        return parameters;
    }

    /** The template as configured. */
    public List<String> source() {
        return source;
    }

    /** The argument vector for checked values, each value rendered as text. */
    public List<String> render(Map<String, Object> values) {
        List<String> argv = new ArrayList<>(elements.size());
        for (List<Part> parts : elements) {
            StringBuilder arg = new StringBuilder();
            for (Part part : parts) {
                switch (part) {
                    case Literal l -> arg.append(l.text());
                    case Placeholder p -> arg.append(values.get(p.parameter()));
                }
            }
            argv.add(arg.toString());
        }
        return argv;
    }
}
