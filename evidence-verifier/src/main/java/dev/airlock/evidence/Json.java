package dev.airlock.evidence;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of JSON (RFC 8259: its number grammar, escapes of four hex digits, no lone surrogates) into {@link Map}, {@link List}, {@link String}, {@link
 * BigDecimal}, {@link Boolean} and {@code null}, and a writer of strings: just what the verifier
 * needs, so that it depends on nothing but the JDK. A key given twice, trailing text, or nesting
 * deeper than {@link #MAX_DEPTH} is an error.
 */
public final class Json {

    /** The deepest nesting read. */
    public static final int MAX_DEPTH = 64;

    /** RFC 8259's number grammar. */
    private static final java.util.regex.Pattern NUMBER =
            java.util.regex.Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    /** Reads one JSON value that is all of {@code text}. */
    public static Object parse(String text) {
        Json json = new Json(text);
        json.space();
        Object value = json.value(0);
        json.space();
        if (json.at != text.length()) {
            throw json.error("text after the value");
        }
        return value;
    }

    /** Reads a JSON object that is all of {@code text}. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(String text) {
        if (!(parse(text) instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        return (Map<String, Object>) map;
    }

    /** {@code value} as a JSON string literal. */
    public static String quote(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH);
        }
        if (at >= text.length()) {
            throw error("a value is missing");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        space();
        if (peek() == '}') {
            at++;
            return Collections.unmodifiableMap(map);
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw error("a key is expected");
            }
            String key = string();
            space();
            expect(':');
            space();
            Object value = value(depth + 1);
            if (map.containsKey(key)) {
                throw error("key '" + key + "' is given twice");
            }
            map.put(key, value);
            space();
            char c = next();
            if (c == '}') {
                return Collections.unmodifiableMap(map);
            }
            if (c != ',') {
                throw error("',' or '}' is expected");
            }
        }
    }

    private List<Object> array(int depth) {
        List<Object> list = new ArrayList<>();
        at++;
        space();
        if (peek() == ']') {
            at++;
            return Collections.unmodifiableList(list);
        }
        while (true) {
            space();
            list.add(value(depth + 1));
            space();
            char c = next();
            if (c == ']') {
                return Collections.unmodifiableList(list);
            }
            if (c != ',') {
                throw error("',' or ']' is expected");
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                String value = out.toString();
                for (int i = 0; i < value.length(); i++) {
                    char ch = value.charAt(i);
                    if (Character.isHighSurrogate(ch)
                            && i + 1 < value.length()
                            && Character.isLowSurrogate(value.charAt(i + 1))) {
                        i++;
                    } else if (Character.isSurrogate(ch)) {
                        throw error("a lone surrogate in a string");
                    }
                }
                return value;
            }
            if (c < 0x20) {
                throw error("a control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("a short \\u escape");
                    }
                    String hex = text.substring(at, at + 4);
                    if (!hex.matches("[0-9a-fA-F]{4}")) {
                        throw error("a bad \\u escape");
                    }
                    out.append((char) Integer.parseInt(hex, 16));
                    at += 4;
                }
                default -> throw error("a bad escape");
            }
        }
    }

    private BigDecimal number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        if (start == at
                || at - start > 100
                || !NUMBER.matcher(text.substring(start, at)).matches()) {
            throw error("a value is expected");
        }
        try {
            return new BigDecimal(text.substring(start, at));
        } catch (NumberFormatException e) {
            throw error("a bad number");
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("a value is expected");
        }
        at += word.length();
        return value;
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private char peek() {
        if (at >= text.length()) {
            throw error("the text ends early");
        }
        return text.charAt(at);
    }

    private char next() {
        char c = peek();
        at++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("'" + c + "' is expected");
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("malformed JSON at character " + at + ": " + what);
    }
}
