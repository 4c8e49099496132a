package dev.airlock.approval.grant;

import dev.airlock.persistence.run.StreamName;
import java.util.UUID;

/**
 * Bytes of one stream of a raw artifact, read through a grant, with the digest check done on
 * the whole stored artifact.
 *
 * @param runId          the run
 * @param stream         which stream
 * @param offset         where the bytes start in the stream
 * @param bytes          the bytes read
 * @param streamBytes    the stream's stored length
 * @param expectedSha256 the digest recorded when the artifact was stored (the envelope's reference)
 * @param actualSha256   the digest of the bytes stored now
 */
public record RawSlice(
        UUID runId,
        StreamName stream,
        long offset,
        byte[] bytes,
        long streamBytes,
        String expectedSha256,
        String actualSha256) {

    /** Whether the stored bytes still match the recorded digest. */
    public boolean digestMatches() {
        return expectedSha256.equals(actualSha256);
    }
}
