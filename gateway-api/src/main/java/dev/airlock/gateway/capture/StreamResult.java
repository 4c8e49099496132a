package dev.airlock.gateway.capture;

import dev.airlock.sanitizer.RemovalReport;

/**
 * What the supervisor observed of one stream.
 *
 * @param observedBytes  bytes read from the pipe
 * @param retainedBytes  bytes kept (the prefix of what was observed)
 * @param truncated      whether fewer bytes were kept than observed
 * @param eof            whether the end of the stream was seen
 * @param sha256         hex SHA-256 of all observed bytes, with the values of injected secrets replaced as in
 *                       the raw artifact
 * @param text           the sanitized, redacted transcript of the retained bytes
 * @param removed        what the sanitizer removed
 * @param redactions     how many secret values were replaced
 * @param raw            the retained bytes exactly as observed, except injected secret values, replaced by
 *                       {@code [REDACTED:<name>]}
 * @param rawRedactions  how many secret values were replaced in {@code raw}
 */
public record StreamResult(
        long observedBytes,
        long retainedBytes,
        boolean truncated,
        boolean eof,
        String sha256,
        String text,
        RemovalReport removed,
        long redactions,
        byte[] raw,
        long rawRedactions) {

    /** The result for a stream that never existed (the process did not start). */
    public static StreamResult empty() {
        return new StreamResult(
                0,
                0,
                false,
                false,
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                "",
                RemovalReport.EMPTY,
                0,
                new byte[0],
                0);
    }
}
