package dev.airlock.gateway.tool;

/**
 * A JSON Schema {@code pattern} (ECMA-262 syntax and meaning, as JSON Schema defines it) rewritten
 * as a {@link java.util.regex.Pattern} that accepts exactly the strings the ECMA-262 expression
 * accepts where the two dialects differ in meaning, never more. An upstream MCP server's schema
 * relies on its patterns, and where Java reads one more loosely, an argument the server's own
 * validation would refuse (or that it never expects) would pass Airlock's check and reach it:
 *
 * <ul>
 *   <li>{@code $} is the end of the input; Java's {@code $} also holds before a final line
 *       terminator, so {@code ^[a-z]+$} took {@code "prod\n"}. Written {@code \z}.
 *   <li>{@code .} is anything but {@code \n}, {@code \r}, U+2028 and U+2029 (Java also leaves
 *       out U+0085).
 *   <li>{@code \s} and {@code \S} take ECMA-262's white space (the no-break space, the ideographic
 *       space, the byte-order mark, …); Java's are ASCII only, so {@code ^\S+$} took a value with a
 *       no-break space in it.
 *   <li>In a class, {@code [} and {@code &} are themselves (Java reads a nested class and an
 *       intersection), {@code \b} is a backspace; {@code []} matches nothing and {@code [^]}
 *       anything.
 * </ul>
 *
 * What either dialect cannot read stays unreadable: the result fails to compile, and a schema with
 * it is refused.
 */
final class EcmaPattern {

    /** ECMA-262's WhiteSpace and LineTerminator, as members of a Java class. */
    private static final String WHITE_SPACE =
            "\\t\\n\\x{0B}\\f\\r\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";

    private EcmaPattern() {}

    /** {@code ecma} as a Java regular expression of the same meaning. */
    static String toJava(String ecma) {
        StringBuilder java = new StringBuilder(ecma.length() + 16);
        int i = 0;
        int n = ecma.length();
        while (i < n) {
            char c = ecma.charAt(i);
            if (c == '\\') {
                i = escape(ecma, i, java, false);
            } else if (c == '[') {
                i = characterClass(ecma, i, java);
            } else if (c == '$') {
                java.append("\\z");
                i++;
            } else if (c == '.') {
                java.append("[^\\n\\r\\x{2028}\\x{2029}]");
                i++;
            } else {
                java.append(c);
                i++;
            }
        }
        return java.toString();
    }

    /** Copies the class starting at {@code start} (its {@code [}); returns the index after it. */
    private static int characterClass(String ecma, int start, StringBuilder java) {
        int n = ecma.length();
        int i = start + 1;
        boolean negated = i < n && ecma.charAt(i) == '^';
        if (negated) {
            i++;
        }
        if (i < n && ecma.charAt(i) == ']') {
            // An empty class: [] matches nothing, [^] any one character.
            java.append(negated ? "[\\s\\S]" : "(?!)");
            return i + 1;
        }
        java.append(negated ? "[^" : "[");
        while (i < n) {
            char c = ecma.charAt(i);
            if (c == ']') {
                java.append(']');
                return i + 1;
            }
            if (c == '\\') {
                i = escape(ecma, i, java, true);
            } else {
                if (c == '[' || c == '&') {
                    java.append('\\');
                }
                java.append(c);
                i++;
            }
        }
        // Unclosed: left so, Java refuses it too.
        return i;
    }

    /** Copies the escape at {@code start} (its backslash); returns the index after it. */
    private static int escape(String ecma, int start, StringBuilder java, boolean inClass) {
        if (start + 1 >= ecma.length()) {
            java.append('\\');
            return start + 1;
        }
        char c = ecma.charAt(start + 1);
        switch (c) {
            case 's' -> java.append(inClass ? WHITE_SPACE : "[" + WHITE_SPACE + "]");
            case 'S' -> java.append("[^").append(WHITE_SPACE).append(']');
            case 'b' -> java.append(inClass ? "\\x{08}" : "\\b");
            default -> java.append('\\').append(c);
        }
        return start + 2;
    }
}
