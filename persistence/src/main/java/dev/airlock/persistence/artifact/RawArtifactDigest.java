package dev.airlock.persistence.artifact;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

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
        MessageDigest digest = dev.airlock.kernel.digest.Sha256.newDigest();
        digest.update("airlock-raw-artifact-v1\n".getBytes(StandardCharsets.US_ASCII));
        digest.update(("stdout " + stdout.length + "\n").getBytes(StandardCharsets.US_ASCII));
        digest.update(stdout);
        digest.update(("stderr " + stderr.length + "\n").getBytes(StandardCharsets.US_ASCII));
        digest.update(stderr);
        return HexFormat.of().formatHex(digest.digest());
    }
}
