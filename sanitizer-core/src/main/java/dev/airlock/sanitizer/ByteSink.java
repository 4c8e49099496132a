package dev.airlock.sanitizer;

/**
 * Receives bytes produced by a stream stage.
 *
 * <p>The array passed to {@link #write(byte[], int, int)} is reused by the caller as soon as the
 * call returns: copy what you need, never keep a reference to it. It may be the caller's own input
 * (the sanitizer passes long clean runs through uncopied): read it, never modify it.
 */
@FunctionalInterface
public interface ByteSink {

    /** A sink that drops everything, for callers that only want a {@link RemovalReport}. */
    ByteSink DISCARD = (bytes, offset, length) -> {};

    /**
     * Accepts {@code length} bytes of {@code bytes} starting at {@code offset}.
     *
     * @throws java.io.UncheckedIOException when the underlying destination fails
     */
    void write(byte[] bytes, int offset, int length);
}
