package dev.airlock.egress;

import java.io.IOException;
import java.io.InputStream;
import org.jspecify.annotations.Nullable;

/** Reads the body of the answer a call keeps, as it arrives. */
@FunctionalInterface
public interface ResponseReader {

    /**
     * Reads {@code body} to its end. The stream stops at the upstream's limit with a {@link
     * ResponseLimitException}, which the reader lets through once it has taken what it wants of the
     * bytes before it.
     *
     * @param status      the answer's status
     * @param contentType the answer's content type, or null
     * @param body        the body
     */
    void read(int status, @Nullable String contentType, InputStream body) throws IOException;

    /**
     * An attempt begins: a retry's answer replaces what an earlier attempt's body left, even when it
     * has no body of its own (a {@code 204} after a {@code 200} cut short), so a reader that keeps a
     * body forgets it here. Called on the attempt's own thread, which then reads that attempt's body
     * (if it has one) on it: an attempt abandoned at its time-out may still read after the next began.
     */
    default void attemptStarted() {}
}
