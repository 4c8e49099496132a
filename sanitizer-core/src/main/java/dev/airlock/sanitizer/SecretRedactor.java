package dev.airlock.sanitizer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Replaces the exact values of registered secrets with {@code [REDACTED:<name>]}.
 *
 * <p>Immutable and shareable: it holds an Aho–Corasick automaton over the UTF-8 bytes of the
 * values, built once. Each {@link #stream(ByteSink) stream} scans in linear time whatever the
 * number of secrets, finds values split across writes, and holds back at most about twice the
 * longest value. Where occurrences overlap, the leftmost wins, and of those the longest, so a
 * secret that contains another is replaced whole. A stream that ends in the first
 * {@value RedactingStream#MIN_REDACTED_TAIL} or more bytes of a secret (a value cut off by the end
 * of output, a limit or a kill) has that tail replaced too.
 *
 * <p>Apply it to sanitized text: a value printed with invisible characters or control sequences
 * inside is matched once the sanitizer has removed them. Secret names must match
 * {@code [A-Za-z0-9_.-]{1,128}}.
 */
public final class SecretRedactor {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,128}");
    private static final SecretRedactor NONE = new SecretRedactor(new TreeMap<>());

    private final Map<String, String> valuesByName;
    final byte[][] replacements;
    final int[] patternLengths;
    final int[] byteClass = new int[256];
    final int classes;
    final int[] transitions;
    final int[] depth;
    /** For each state, the longest pattern that ends there, or -1. */
    final int[] longestMatch;
    /** For each state, a pattern whose prefix the state's depth spells, or -1 for the root. */
    final int[] prefixOf;

    final int maxPatternLength;

    private SecretRedactor(TreeMap<String, String> valuesByName) {
        this(valuesByName, Map.of());
    }

    /**
     * @param valuesByName the secrets
     * @param moreForms    other forms of their values (form to name), replaced as the value is
     */
    private SecretRedactor(TreeMap<String, String> valuesByName, Map<String, String> moreForms) {
        Map<String, String> byValue = new LinkedHashMap<>();
        valuesByName.forEach((name, value) -> byValue.putIfAbsent(value, name));
        moreForms.forEach(byValue::putIfAbsent);
        this.valuesByName = Collections.unmodifiableMap(new LinkedHashMap<>(valuesByName));

        byte[][] patterns = new byte[byValue.size()][];
        replacements = new byte[byValue.size()][];
        patternLengths = new int[byValue.size()];
        int p = 0;
        int total = 1;
        int longest = 0;
        boolean[] used = new boolean[256];
        for (Map.Entry<String, String> e : byValue.entrySet()) {
            patterns[p] = e.getKey().getBytes(StandardCharsets.UTF_8);
            replacements[p] = ("[REDACTED:" + e.getValue() + "]").getBytes(StandardCharsets.US_ASCII);
            patternLengths[p] = patterns[p].length;
            total += patterns[p].length;
            longest = Math.max(longest, patterns[p].length);
            for (byte b : patterns[p]) {
                used[b & 0xFF] = true;
            }
            p++;
        }
        int k = 1;
        for (int b = 0; b < 256; b++) {
            byteClass[b] = used[b] ? k++ : 0;
        }
        classes = k;
        maxPatternLength = longest;

        int[] trie = new int[total * classes];
        Arrays.fill(trie, -1);
        int[] depths = new int[total];
        int[] terminal = new int[total];
        Arrays.fill(terminal, -1);
        int[] prefixes = new int[total];
        Arrays.fill(prefixes, -1);
        int states = 1;
        for (int i = 0; i < patterns.length; i++) {
            int s = 0;
            for (byte b : patterns[i]) {
                int slot = s * classes + byteClass[b & 0xFF];
                if (trie[slot] < 0) {
                    depths[states] = depths[s] + 1;
                    trie[slot] = states++;
                }
                s = trie[slot];
                if (prefixes[s] < 0) {
                    prefixes[s] = i;
                }
            }
            terminal[s] = i;
        }

        transitions = new int[states * classes];
        depth = Arrays.copyOf(depths, states);
        prefixOf = Arrays.copyOf(prefixes, states);
        longestMatch = new int[states];
        int[] fail = new int[states];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int c = 0; c < classes; c++) {
            int next = trie[c];
            if (next > 0) {
                transitions[c] = next;
                fail[next] = 0;
                queue.add(next);
            } else {
                transitions[c] = 0;
            }
        }
        longestMatch[0] = -1;
        while (!queue.isEmpty()) {
            int s = queue.poll();
            longestMatch[s] = terminal[s] >= 0 ? terminal[s] : longestMatch[fail[s]];
            for (int c = 0; c < classes; c++) {
                int next = trie[s * classes + c];
                if (next > 0) {
                    fail[next] = transitions[fail[s] * classes + c];
                    transitions[s * classes + c] = next;
                    queue.add(next);
                } else {
                    transitions[s * classes + c] = transitions[fail[s] * classes + c];
                }
            }
        }
    }

    /**
     * A redactor for the given secrets, keyed by name.
     *
     * @throws IllegalArgumentException for a name outside {@code [A-Za-z0-9_.-]{1,128}} or an empty value
     */
    public static SecretRedactor of(Map<String, String> secretsByName) {
        TreeMap<String, String> sorted = new TreeMap<>();
        secretsByName.forEach((name, value) -> {
            Objects.requireNonNull(name, "secret name");
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("secret name must match [A-Za-z0-9_.-]{1,128}: " + name);
            }
            if (value == null || value.isEmpty()) {
                throw new IllegalArgumentException("secret " + name + " has an empty value");
            }
            sorted.put(name, value);
        });
        return sorted.isEmpty() ? NONE : new SecretRedactor(sorted);
    }

    /** A redactor with no secrets: it passes text through unchanged. */
    public static SecretRedactor none() {
        return NONE;
    }

    /** The shortest rewritten form of a value that is still redacted on its own. */
    static final int MIN_FORM_LENGTH = 4;

    /**
     * This redactor for text the terminal sanitizer has written: each value as it is, and also in
     * the form the sanitizer gives it when that differs (CR LF as LF, a byte order mark or invisible
     * characters removed), under the value's own name. Without it a secret the sanitizer rewrites
     * would reach the sanitized text whole while its raw bytes were redacted. A form shorter than
     * {@value #MIN_FORM_LENGTH} characters is matched only when the value itself is no longer (a
     * value that was mostly invisible does not make every short string a redaction).
     */
    public SecretRedactor forSanitizedText() {
        SecretRedactor made = sanitizedText;
        if (made == null) {
            made = sanitizedForms();
            sanitizedText = made;
        }
        return made;
    }

    /** Made once per redactor (a race makes it twice, the same): log lines ask for it each time. */
    private volatile SecretRedactor sanitizedText;

    private SecretRedactor sanitizedForms() {
        Map<String, String> forms = new LinkedHashMap<>();
        valuesByName.forEach((name, value) -> {
            String sanitized = TerminalSanitizer.sanitize(value.getBytes(StandardCharsets.UTF_8));
            if (!sanitized.equals(value)
                    && sanitized.length() >= Math.min(MIN_FORM_LENGTH, value.length())
                    && !sanitized.isEmpty()) {
                forms.putIfAbsent(sanitized, name);
            }
        });
        return forms.isEmpty() ? this : new SecretRedactor(new TreeMap<>(valuesByName), forms);
    }

    /** The names of the registered secrets. */
    public Set<String> names() {
        return valuesByName.keySet();
    }

    /** A new stream that writes redacted text to {@code sink}. */
    public RedactingStream stream(ByteSink sink) {
        return new RedactingStream(this, sink);
    }

    /** {@code text} with every registered value replaced. */
    public String redact(String text) {
        return new String(redact(text.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    /** {@code bytes} with every registered value replaced (a new array; {@code bytes} is left as it was). */
    public byte[] redact(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        RedactingStream stream = stream(out::write);
        stream.write(bytes, 0, bytes.length);
        stream.finish();
        return out.toByteArray();
    }

    @Override
    public String toString() {
        return "SecretRedactor" + names();
    }
}
