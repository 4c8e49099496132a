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
    private final List<TextTemplate> elements;
    private final Set<String> parameters;

    private ArgvTemplate(List<String> source, List<TextTemplate> elements, Set<String> parameters) {
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
        List<TextTemplate> elements = new ArrayList<>();
        Set<String> used = new LinkedHashSet<>();
        for (int i = 0; i < argv.size(); i++) {
            String element = argv.get(i);
            String where = key + "[" + i + "]";
            if (element == null || element.isEmpty() && i == 0) {
                throw new InvalidConfigurationException(where, "the program must not be empty");
            }
            TextTemplate template = TextTemplate.parse(element, known, where);
            if (i == 0 && !template.parameters().isEmpty()) {
                throw new InvalidConfigurationException(where, "the program itself cannot be a parameter");
            }
            used.addAll(template.parameters());
            elements.add(template);
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
        for (TextTemplate element : elements) {
            argv.add(element.render(values));
        }
        return argv;
    }
}
