package dev.airlock.approval.request;

import org.jspecify.annotations.Nullable;

/**
 * The four-eyes rule, the one place it is written: whoever asked for something (the owner of the
 * agent that requested a run, the person who asked for raw access) is never the one who decides
 * on it.
 */
public final class FourEyes {

    private FourEyes() {}

    /** Whether {@code person} is someone other than {@code requester}, and so may decide. */
    public static boolean isSecondPerson(String person, @Nullable String requester) {
        return person != null && !person.equals(requester);
    }
}
