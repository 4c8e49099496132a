package dev.airlock.evidence;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The rules an evidence bundle is written and checked by, in one place: the names of its
 * entries, the audit chain's hash, the raw artifact's digest and what an anchor signs. Airlock's
 * audit log and raw-artifact store compute their hashes with these same methods, so that the
 * service and the offline verifier cannot drift apart.
 */
public final class EvidenceFormat {

    /** The bundle format this verifier reads, stated in every manifest. */
    public static final String FORMAT = "airlock-evidence-v1";
    /** The anchor format, stated in every anchor. */
    public static final String ANCHOR_FORMAT = "airlock-anchor-v1";
    /** The manifest entry. */
    public static final String MANIFEST = "manifest.json";
    /** The entry holding the manifest's signature. */
    public static final String SIGNATURE = "manifest.sig.json";
    /** The audit events, one JSON object a line, in chain order. */
    public static final String EVENTS = "audit/events.jsonl";
    /** The signature algorithm (the JDK's EdDSA). */
    public static final String ALGORITHM = "Ed25519";
    /** The previous hash of a tenant's first audit event. */
    public static final String GENESIS = "0".repeat(64);
    /**
     * How long before a bundle's export its range must have ended. A run is recorded a moment after
     * its request time is taken; one requested just before the range's end could still be being
     * recorded when the export reads the database, and would then be in neither the bundle's runs
     * nor its chain, where nothing could show it missing.
     */
    public static final java.time.Duration SETTLE = java.time.Duration.ofMinutes(1);

    private EvidenceFormat() {}

    /** The folder of one run's entries. */
    public static String runFolder(String runId) {
        return "runs/" + runId + "/";
    }

    /**
     * The hash of an audit event: SHA-256 over the previous hash, the tenant, the sequence number,
     * the type, the run id (empty when none), the actor, the details (a JSON object as stored) and
     * the time (ISO-8601, in microseconds), joined by line breaks.
     */
    public static String chainHash(
            String prev,
            String tenant,
            long seq,
            String type,
            String runId,
            String actor,
            String details,
            String occurredAt) {
        return sha256Hex(String.join("\n", prev, tenant, Long.toString(seq), type, runId, actor, details, occurredAt)
                .getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The digest naming a raw artifact: SHA-256 over {@code "airlock-raw-artifact-v1\n"}, then for
     * each of stdout and stderr the line {@code "<name> <length>\n"} and the bytes, so that no two
     * different pairs of streams share a digest.
     */
    public static String rawArtifactDigest(byte[] stdout, byte[] stderr) {
        MessageDigest digest = rawArtifactDigest();
        digest.update(rawStreamHeader("stdout", stdout.length));
        digest.update(stdout);
        digest.update(rawStreamHeader("stderr", stderr.length));
        digest.update(stderr);
        return HexFormat.of().formatHex(digest.digest());
    }

    /** A digest primed for a raw artifact: feed it each stream's {@link #rawStreamHeader} and bytes, stdout first. */
    public static MessageDigest rawArtifactDigest() {
        MessageDigest digest = sha256();
        digest.update("airlock-raw-artifact-v1\n".getBytes(StandardCharsets.US_ASCII));
        return digest;
    }

    /** The line before a stream's bytes in a raw artifact's digest: {@code "<name> <length>\n"}. */
    public static byte[] rawStreamHeader(String name, long length) {
        return (name + " " + length + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** What an anchor's signature covers: the format, tenant, sequence number, head hash and time, a line each. */
    public static byte[] anchorPayload(String tenant, long seq, String head, String at) {
        return String.join("\n", ANCHOR_FORMAT, tenant, Long.toString(seq), head, at)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Lower-case hex SHA-256 of {@code bytes}. */
    public static String sha256Hex(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    /** A fresh SHA-256 digest. */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * A person's name as the four-eyes rule compares names, here and in the gateway: Unicode
     * compatibility forms folded (NFKC), then lower case whatever the locale; {@code Alice} and
     * {@code alice} are one approver.
     */
    public static String personKey(String name) {
        return java.text.Normalizer.normalize(name, java.text.Normalizer.Form.NFKC)
                .toLowerCase(java.util.Locale.ROOT);
    }
}
