package dev.airlock.persistence.artifact;

/**
 * The digest that names a run's raw artifact. The artifact holds both streams' retained bytes;
 * its digest is SHA-256 over {@code "airlock-raw-artifact-v1\n"}, then for each of stdout and
 * stderr the line {@code "<name> <length>\n"} followed by the bytes, so that no two different
 * pairs of streams share a digest. {@link RawArtifactStore#read} computes the same digest inside the
 * database to check stored artifacts without moving their bytes.
 */
public final class RawArtifactDigest {

    /** How an envelope names an artifact: this prefix, then the digest. */
    public static final String REFERENCE_PREFIX = "restricted:sha256:";

    private RawArtifactDigest() {}

    /** The lower-case hex digest of an artifact. */
    public static String of(byte[] stdout, byte[] stderr) {
        return dev.airlock.evidence.EvidenceFormat.rawArtifactDigest(stdout, stderr);
    }
}
