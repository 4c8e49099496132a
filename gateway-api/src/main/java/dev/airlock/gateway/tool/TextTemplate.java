package dev.airlock.gateway.tool;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * One configured string with parameter placeholders: {@code {name}} stands for a parameter's
 * value, {@code {{} and {@code }}} for literal braces. Used for argv elements, URL path segments,
 * query values and header values; how a value is encoded where it lands is the caller's choice.
 */
public final class TextTemplate {

    private sealed interface Part {}

    private record Literal(String text) implements Part {}

    private record Placeholder(String parameter) implements Part {}

    private final String source;
    private final List<Part> parts;
    private final Set<String> parameters;

    private TextTemplate(String source, List<Part> parts, Set<String> parameters) {
        this.source = source;
        this.parts = parts;
        this.parameters = parameters;
    }

    /**
     * Parses {@code text}, checking every placeholder against {@code known}.
     *
     * @param key the configuration key of the text, for error messages
     * @throws InvalidConfigurationException naming {@code key}
     */
    public static TextTemplate parse(String text, Set<String> known, String key) {
        List<Part> parts = new ArrayList<>();
        Set<String> used = new LinkedHashSet<>();
        StringBuilder literal = new StringBuilder();
        for (int c = 0; c < text.length(); c++) {
            char ch = text.charAt(c);
            if (ch == '{' && c + 1 < text.length() && text.charAt(c + 1) == '{') {
                literal.append('{');
                c++;
            } else if (ch == '}' && c + 1 < text.length() && text.charAt(c + 1) == '}') {
                literal.append('}');
                c++;
            } else if (ch == '{') {
                int close = text.indexOf('}', c);
                if (close < 0) {
                    throw new InvalidConfigurationException(
                            key, "unclosed '{' in \"" + text + "\" (write {{ for a brace)");
                }
                String name = text.substring(c + 1, close);
                if (!known.contains(name)) {
                    throw new InvalidConfigurationException(
                            key, "unknown parameter {" + name + "} in \"" + text + "\"; parameters are " + known);
                }
                if (!literal.isEmpty()) {
                    parts.add(new Literal(literal.toString()));
                    literal.setLength(0);
                }
                parts.add(new Placeholder(name));
                used.add(name);
                c = close;
            } else if (ch == '}') {
                throw new InvalidConfigurationException(key, "stray '}' in \"" + text + "\" (write }} for a brace)");
            } else {
                literal.append(ch);
            }
        }
        if (!literal.isEmpty() || parts.isEmpty()) {
            parts.add(new Literal(literal.toString()));
        }
        return new TextTemplate(text, List.copyOf(parts), Set.copyOf(used));
    }

    /** The parameters the text uses, in order of first use. */
    public Set<String> parameters() {
        return parameters;
    }

    /** The text as configured. */
    public String source() {
        return source;
    }

    /** Every literal part, as it will be written. */
    List<String> literals() {
        return parts.stream()
                .filter(Literal.class::isInstance)
                .map(p -> ((Literal) p).text())
                .toList();
    }

    /** The text with each value as text. */
    public String render(Map<String, Object> values) {
        return render(values, UnaryOperator.identity(), UnaryOperator.identity());
    }

    /** The text with literal parts and values each encoded as the place it lands needs. */
    public String render(Map<String, Object> values, UnaryOperator<String> literal, UnaryOperator<String> value) {
        StringBuilder text = new StringBuilder();
        for (Part part : parts) {
            switch (part) {
                case Literal l -> text.append(literal.apply(l.text()));
                case Placeholder p -> text.append(value.apply(String.valueOf(values.get(p.parameter()))));
            }
        }
        return text.toString();
    }
}
