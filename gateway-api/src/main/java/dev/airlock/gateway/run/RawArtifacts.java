package dev.airlock.gateway.run;

import dev.airlock.gateway.support.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The digest that names a run's raw artifact. The artifact holds both streams' retained bytes;
 * its digest is SHA-256 over {@code "airlock-raw-artifact-v1\n"}, then for each of stdout and
 * stderr the line {@code "<name> <length>\n"} followed by the bytes, so that no two different
 * pairs of streams share a digest.
 */
final class RawArtifacts {

    static final String REFERENCE_PREFIX = "restricted:sha256:";

    private RawArtifacts() {
    }

    static String digest(byte[] stdout, byte[] stderr) {
        MessageDigest digest = Sha256.newDigest();
        digest.update("airlock-raw-artifact-v1\n".getBytes(StandardCharsets.US_ASCII));
        digest.update(("stdout " + stdout.length + "\n").getBytes(StandardCharsets.US_ASCII));
        digest.update(stdout);
        digest.update(("stderr " + stderr.length + "\n").getBytes(StandardCharsets.US_ASCII));
        digest.update(stderr);
        return Sha256.hex(digest);
    }
}
