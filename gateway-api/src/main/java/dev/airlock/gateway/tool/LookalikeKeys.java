package dev.airlock.gateway.tool;

import java.text.Normalizer;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

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
        String found = twins(top, seen);
        return found != null ? found : nested(top.values());
    }

    private static @Nullable String nested(Iterable<?> values) {
        for (Object value : values) {
            String found = null;
            if (value instanceof Map<?, ?> map) {
                found = twins(map, new HashMap<>());
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

    /** The first key of {@code map} that reads as another in {@code seen} (folded form to key), or null. */
    private static @Nullable String twins(Map<?, ?> map, Map<String, String> seen) {
        for (Object key : map.keySet()) {
            String name = String.valueOf(key);
            String other = seen.putIfAbsent(folded(name), name);
            if (other != null && !other.equals(name)) {
                return "arguments: the keys " + quoted(other) + " and " + quoted(name)
                        + " differ only by letter case or a compatibility form, and a server may read them"
                        + " as one; use the key the tool's schema names";
            }
        }
        return null;
    }

    /** {@code name} in compatibility form, case folded (the upper-then-lower round trip folds ſ, K and ß too). */
    static String folded(String name) {
        return Normalizer.normalize(name, Normalizer.Form.NFKC)
                .toUpperCase(Locale.ROOT)
                .toLowerCase(Locale.ROOT);
    }

    private static String quoted(String key) {
        StringBuilder out = new StringBuilder("\"");
        key.codePoints().forEach(c -> {
            if (c > 0xffff) {
                out.append(String.format(Locale.ROOT, "\\u{%x}", c));
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format(Locale.ROOT, "\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.append('"').toString();
    }
}
