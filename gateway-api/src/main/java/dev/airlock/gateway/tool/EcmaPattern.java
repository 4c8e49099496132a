package dev.airlock.gateway.tool;

import java.util.Locale;
import java.util.regex.PatternSyntaxException;

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
 *   <li>{@code \v} is U+000B alone and {@code \cJ} the control character of the letter modulo 32
 *       (Java's {@code \v} is any vertical space, its {@code \c} flips a bit).
 * </ul>
 *
 * What the two dialects read differently and cannot be rewritten is refused (a {@link
 * PatternSyntaxException}, so the schema is not used): back-references (ECMA-262 resets a group
 * on each repetition and reads an unset one as empty), inline flags and other {@code (?}
 * constructs but look-arounds, non-capturing and named groups, possessive quantifiers, and
 * letter escapes ECMA-262 does not define ({@code \Z}, {@code \A}, {@code \R}, {@code \Q}, …).
 * {@code \p{…}} is a Unicode property, as JSON Schema's patterns read with the {@code u} flag.
 */
final class EcmaPattern {

    /** ECMA-262's WhiteSpace and LineTerminator, as members of a Java class. */
    private static final String WHITE_SPACE =
            "\\t\\n\\x{0B}\\f\\r\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";

    /** ECMA-262's word characters: Java's boundaries also count a combining mark after any letter. */
    private static final String WORD = "[A-Za-z0-9_]";

    private static final String BOUNDARY = "(?:(?<=" + WORD + ")(?!" + WORD + ")|(?<!" + WORD + ")(?=" + WORD + "))";
    private static final String NOT_BOUNDARY =
            "(?:(?<=" + WORD + ")(?=" + WORD + ")|(?<!" + WORD + ")(?!" + WORD + "))";

    /**
     * The general categories {@code \p{…}} may name, by their short names: each means the same to
     * Java. Other names (Java reads {@code Alpha}, {@code Lower} and {@code Upper} as ASCII classes
     * where ECMA-262 means the Unicode properties) are refused, as is any other property but a
     * script ({@code Script=}, {@code sc=}).
     */
    private static final java.util.Set<String> CATEGORIES = java.util.Set.of(
            "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps",
            "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Cs", "Co",
            "Cn");

    private EcmaPattern() {}

    /**
     * {@code ecma} as a Java regular expression of the same meaning.
     *
     * @throws PatternSyntaxException for what the two dialects read differently and cannot be rewritten
     */
    static String toJava(String ecma) {
        StringBuilder java = new StringBuilder(ecma.length() + 16);
        int i = 0;
        int n = ecma.length();
        boolean quantified = false;
        while (i < n) {
            char c = ecma.charAt(i);
            boolean quantifier = false;
            if (c == '\\') {
                i = escape(ecma, i, java, false);
            } else if (c == '[') {
                i = characterClass(ecma, i, java);
            } else if (c == '(') {
                i = group(ecma, i, java);
            } else if (c == '$') {
                java.append("\\z");
                i++;
            } else if (c == '.') {
                java.append("[^\\n\\r\\x{2028}\\x{2029}]");
                i++;
            } else {
                if (c == '+' && quantified) {
                    throw refused("a possessive quantifier", ecma, i);
                }
                quantifier = c == '*' || c == '+' || c == '?' || c == '}';
                java.append(c);
                i++;
            }
            quantified = quantifier;
        }
        return java.toString();
    }

    /** Copies the group opening at {@code start}; returns the index after its opening. */
    private static int group(String ecma, int start, StringBuilder java) {
        if (!ecma.startsWith("(?", start)) {
            java.append('(');
            return start + 1;
        }
        for (String opening : new String[] {"(?:", "(?=", "(?!", "(?<=", "(?<!"}) {
            if (ecma.startsWith(opening, start)) {
                java.append(opening);
                return start + opening.length();
            }
        }
        if (ecma.startsWith("(?<", start) && start + 3 < ecma.length() && Character.isLetter(ecma.charAt(start + 3))) {
            java.append("(?<");
            return start + 3;
        }
        throw refused("a group construct other than (?:, look-arounds and named groups", ecma, start);
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
        int n = ecma.length();
        if (start + 1 >= n) {
            throw refused("a pattern ending in a backslash", ecma, start);
        }
        char c = ecma.charAt(start + 1);
        int next = start + 2;
        switch (c) {
            case 's' -> java.append("[" + WHITE_SPACE + "]");
            case 'S' -> java.append("[^" + WHITE_SPACE + "]");
            case 'd', 'D', 'w', 'W', 'f', 'n', 'r', 't' -> java.append('\\').append(c);
            case 'v' -> java.append("\\x{0B}");
            case 'b' -> java.append(inClass ? "\\x{08}" : BOUNDARY);
            case 'B' -> {
                if (inClass) {
                    throw refused("\\B in a class", ecma, start);
                }
                java.append(NOT_BOUNDARY);
            }
            case '0' -> {
                if (next < n && Character.isDigit(ecma.charAt(next))) {
                    throw refused("an octal escape", ecma, start);
                }
                java.append("\\x{00}");
            }
            case 'c' -> {
                char letter = next < n ? ecma.charAt(next) : 0;
                if (!(letter >= 'a' && letter <= 'z' || letter >= 'A' && letter <= 'Z')) {
                    throw refused("\\c without a letter", ecma, start);
                }
                java.append(String.format(Locale.ROOT, "\\x{%02X}", letter % 32));
                next++;
            }
            case 'x' -> next = hex(ecma, start, 2, java);
            case 'u' -> next = hex(ecma, start, 4, java);
            case 'p', 'P' -> {
                int close = ecma.indexOf('}', next);
                if (next >= n || ecma.charAt(next) != '{' || close < 0) {
                    throw refused("\\p without a property", ecma, start);
                }
                java.append('\\').append(c).append('{').append(property(ecma.substring(next + 1, close), ecma, start));
                java.append('}');
                next = close + 1;
            }
            default -> {
                if (Character.isLetterOrDigit(c)) {
                    // A back-reference, \k<name>, or a letter escape ECMA-262 does not define.
                    throw refused("\\" + c, ecma, start);
                }
                java.append('\\').append(c);
            }
        }
        return next;
    }

    /** The Java name of the property {@code name} of a {@code \\p{…}}, or refused. */
    private static String property(String name, String ecma, int at) {
        if (CATEGORIES.contains(name)) {
            return name;
        }
        for (String prefix : new String[] {"Script=", "sc="}) {
            if (name.startsWith(prefix) && name.substring(prefix.length()).matches("[A-Za-z_]+")) {
                return "sc=" + name.substring(prefix.length());
            }
        }
        throw refused("the property \\p{" + name + "}", ecma, at);
    }

    /** Copies {@code \\x} or {@code \\u} with its {@code digits} hexadecimal digits; returns the index after them. */
    private static int hex(String ecma, int start, int digits, StringBuilder java) {
        int end = start + 2 + digits;
        if (end > ecma.length()
                || !ecma.substring(start + 2, end).chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
            throw refused("\\" + ecma.charAt(start + 1) + " without " + digits + " hexadecimal digits", ecma, start);
        }
        java.append(ecma, start, end);
        return end;
    }

    private static PatternSyntaxException refused(String what, String ecma, int index) {
        return new PatternSyntaxException(what + " reads differently in ECMA-262 and Java", ecma, index);
    }
}
