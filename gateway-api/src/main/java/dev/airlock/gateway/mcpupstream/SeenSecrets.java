package dev.airlock.gateway.mcpupstream;

import dev.airlock.gateway.upstream.UpstreamCredentials;
import dev.airlock.sanitizer.SecretRedactor;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every secret value a server was ever given, and the forms a server is likely to echo each in
 * (JSON-escaped, percent-encoded, Base64): what redacts its answers, progress, logs and errors. A
 * value stays here for the server's lifetime, so a secret rotated between a start and an answer, or
 * between a message and its answer, is redacted in both its old and its new value.
 */
final class SeenSecrets {

    /** Every value, each under the name it is redacted as (a second value of a name gets a suffix). */
    private final Map<String, String> seen = new LinkedHashMap<>();

    private SecretRedactor redactor = SecretRedactor.none();

    /** Remembers {@code values} (name to value) with their encoded forms. */
    void rememberWithForms(Map<String, String> values) {
        remember(UpstreamCredentials.withEncodings(values));
    }

    /** Remembers {@code forms} (name to value) as they are. */
    void remember(Map<String, String> forms) {
        synchronized (seen) {
            boolean added = false;
            for (Map.Entry<String, String> value : forms.entrySet()) {
                if (!seen.containsValue(value.getValue())) {
                    String unique = value.getKey();
                    for (int n = 2; seen.containsKey(unique); n++) {
                        unique = value.getKey() + "_" + n;
                    }
                    seen.put(unique, value.getValue());
                    added = true;
                }
            }
            if (added) {
                redactor = SecretRedactor.of(Map.copyOf(seen));
            }
        }
    }

    /** What redacts every value remembered so far. */
    SecretRedactor redactor() {
        synchronized (seen) {
            return redactor;
        }
    }
}
