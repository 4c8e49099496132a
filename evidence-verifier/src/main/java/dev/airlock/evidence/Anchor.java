package dev.airlock.evidence;

import java.util.Map;

/**
 * A signed statement of a tenant's audit chain head at a moment: whoever keeps it can later tell
 * whether events up to {@code seq} were removed or rewritten. Airlock publishes one per tenant on
 * a schedule (an {@code evidence.anchor} log line and webhook); its JSON form is
 * {@code {"format": "airlock-anchor-v1", "tenant", "seq", "head", "at", "keyId", "signature"}}.
 *
 * @param tenant    the tenant
 * @param seq       the sequence number of the newest event at that moment
 * @param head      that event's hash
 * @param at        when (ISO-8601)
 * @param keyId     the key that signed
 * @param signature Base64 Ed25519 signature of {@link EvidenceFormat#anchorPayload}
 */
public record Anchor(String tenant, long seq, String head, String at, String keyId, String signature) {

    /** Reads an anchor's JSON. */
    public static Anchor parse(String json) {
        Map<String, Object> fields;
        try {
            fields = Json.object(json);
        } catch (IllegalArgumentException e) {
            throw new VerificationFailure("anchor: " + e.getMessage());
        }
        if (!EvidenceFormat.ANCHOR_FORMAT.equals(fields.get("format"))) {
            throw new VerificationFailure("anchor: format is not " + EvidenceFormat.ANCHOR_FORMAT);
        }
        return new Anchor(
                Fields.string(fields, "tenant", "anchor"),
                Fields.number(fields, "seq", "anchor"),
                Fields.string(fields, "head", "anchor"),
                Fields.string(fields, "at", "anchor"),
                Fields.string(fields, "keyId", "anchor"),
                Fields.string(fields, "signature", "anchor"));
    }

    /** What the signature covers. */
    public byte[] payload() {
        return EvidenceFormat.anchorPayload(tenant, seq, head, at);
    }

    /** The anchor as JSON. */
    public String toJson() {
        return "{\"format\":" + Json.quote(EvidenceFormat.ANCHOR_FORMAT) + ",\"tenant\":" + Json.quote(tenant)
                + ",\"seq\":" + seq + ",\"head\":" + Json.quote(head) + ",\"at\":" + Json.quote(at) + ",\"keyId\":"
                + Json.quote(keyId) + ",\"signature\":" + Json.quote(signature) + "}";
    }
}
