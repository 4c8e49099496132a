package dev.airlock.persistence.audit;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The hash chain of a tenant's audit log, without storage: how an event's details are written
 * (a JSON object of strings with sorted keys, controls escaped) and how its hash covers the
 * previous hash and every field. {@link AuditLog} stores events with it and verifies them
 * against it; nothing here touches the database, so the rules are tested on their own.
 */
public final class AuditChain {

    /** The previous hash of a tenant's first event. */
    public static final String GENESIS = dev.airlock.evidence.EvidenceFormat.GENESIS;

    private AuditChain() {}

    /** The hash of an event that follows {@code prev}. */
    public static String hash(
            String prev,
            String tenant,
            long seq,
            String type,
            @Nullable UUID runId,
            String actor,
            String details,
            Instant occurredAt) {
        return dev.airlock.evidence.EvidenceFormat.chainHash(
                prev,
                tenant,
                seq,
                type,
                runId == null ? "" : runId.toString(),
                actor,
                details,
                occurredAt.truncatedTo(ChronoUnit.MICROS).toString());
    }

    /** The details as stored: a JSON object of strings, keys sorted, controls and line separators escaped. */
    public static String json(Map<String, String> details) {
        StringBuilder json = new StringBuilder("{");
        new TreeMap<>(details).forEach((k, v) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append(quote(k)).append(':').append(v == null ? "null" : quote(v));
        });
        return json.append('}').toString();
    }

    private static String quote(String s) {
        StringBuilder q = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                default -> {
                    if (c < 0x20 || c == 0x7F || c >= 0x80 && c < 0xA0 || c == 0x2028 || c == 0x2029) {
                        q.append(String.format("\\u%04x", (int) c));
                    } else {
                        q.append(c);
                    }
                }
            }
        }
        return q.append('"').toString();
    }
}
