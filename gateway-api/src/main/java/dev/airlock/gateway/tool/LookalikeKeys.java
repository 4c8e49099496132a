package dev.airlock.gateway.tool;

import java.text.Normalizer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Object keys of an upstream tool's arguments that a server could read as another key: two keys of
 * one object that differ only by letter case or a compatibility form ({@code namespace} and
 * {@code nameſpace}, with the long s; {@code Kind} with the Kelvin sign), or a top-level key that
 * is not a property of the tool's schema but reads as one. Many servers' JSON decoders match keys
 * that way (Go's {@code encoding/json} folds case, the last of two wins), so a rule would decide
 * on one value while the server acts on another; such arguments are refused.
 */
final class LookalikeKeys {

    private LookalikeKeys() {}

    /**
     * The first pair of look-alike keys in {@code arguments} (canonical: maps with string keys,
     * lists), with {@code declared} (the schema's top-level property names) standing beside the
     * top-level keys; null when there is none.
     */
    static @Nullable String problem(Object arguments, Set<String> declared) {
        if (!(arguments instanceof Map<?, ?> top)) {
            return null;
        }
        Map<String, String> seen = new HashMap<>();
        for (String name : declared) {
            seen.putIfAbsent(folded(name), name);
        }
        // A declared key is itself (servers match an exact name first); any other key may not read as one.
        String found = twins(top, seen, declared);
        return found != null ? found : nested(top.values());
    }

    private static @Nullable String nested(Iterable<?> values) {
        for (Object value : values) {
            String found = null;
            if (value instanceof Map<?, ?> map) {
                found = twins(map, new HashMap<>(), Set.of());
                if (found == null) {
                    found = nested(map.values());
                }
            } else if (value instanceof List<?> list) {
                found = nested(list);
            }
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /**
     * The first key of {@code map} but the {@code declared} ones that reads as another in
     * {@code seen} (folded form to key), or null.
     */
    private static @Nullable String twins(Map<?, ?> map, Map<String, String> seen, Set<String> declared) {
        for (Object key : map.keySet()) {
            String name = String.valueOf(key);
            if (declared.contains(name)) {
                continue;
            }
            String other = seen.putIfAbsent(folded(name), name);
            if (other != null && !other.equals(name)) {
                return "arguments: the keys " + quoted(other) + " and " + quoted(name)
                        + " differ only by letter case or a compatibility form, and a server may read them"
                        + " as one; use the key the tool's schema names";
            }
        }
        return null;
    }

    /**
     * {@code name} in compatibility form with each code point case folded as Unicode's simple
     * folding does (the long s and the Kelvin sign fold to s and k; ß and ẞ to ß).
     */
    static String folded(String name) {
        StringBuilder folded = new StringBuilder(name.length());
        Normalizer.normalize(name, Normalizer.Form.NFKC)
                .codePoints()
                .forEach(c -> folded.appendCodePoint(Character.toLowerCase(Character.toUpperCase(c))));
        return folded.toString();
    }

    /** {@code key} as a JSON string, everything past ASCII escaped: a look-alike letter shows as what it is. */
    private static String quoted(String key) {
        return ASCII_JSON.writeValueAsString(key);
    }

    private static final JsonMapper ASCII_JSON =
            JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
}
