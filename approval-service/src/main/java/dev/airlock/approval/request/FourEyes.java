package dev.airlock.approval.request;

import org.jspecify.annotations.Nullable;

/**
 * The four-eyes rule, the one place it is written: whoever asked for something (the owner of the
 * agent that requested a run, the person who asked for raw access) is never the one who decides
 * on it. Names are compared as people read them, not as bytes: {@code Carol@corp.example} from an
 * identity provider is the owner written {@code carol@corp.example}, and {@code alice} and
 * {@code Alice} are one approver (compatibility forms folded, then case, as {@link #nameKey} does).
 */
public final class FourEyes {

    private FourEyes() {}

    /** Whether {@code person} is someone other than {@code requester}, and so may decide. */
    public static boolean isSecondPerson(String person, @Nullable String requester) {
        return person != null && (requester == null || !nameKey(person).equals(nameKey(requester)));
    }

    /**
     * A name as the four-eyes rule compares it: Unicode compatibility forms folded (NFKC, so a
     * full-width or ligature spelling is the plain one), then lower case, whatever the locale.
     */
    public static String nameKey(String name) {
        // The one definition, which the offline verifier counts approvers by too.
        return dev.airlock.evidence.EvidenceFormat.personKey(name);
    }

    /**
     * Whether the person is someone other than the requester by name and by identity: a shared
     * name, or one identity under a changed name, is the same person here.
     *
     * @param requesterIdentity the requester's identity, or null when none was recorded (then the name decides)
     */
    public static boolean isSecondPerson(
            String person, String identity, @Nullable String requester, @Nullable String requesterIdentity) {
        return !samePerson(person, identity, requester, requesterIdentity);
    }

    /**
     * Whether two sign-ins are one person where telling them apart matters: the same name or the
     * same identity (a name two people share, or one identity under a changed name, counts once).
     *
     * @param otherIdentity the other's identity, or null when none was recorded (then the name decides)
     */
    public static boolean samePerson(
            String name, String identity, @Nullable String otherName, @Nullable String otherIdentity) {
        return (otherName != null && nameKey(name).equals(nameKey(otherName))) || identity.equals(otherIdentity);
    }
}
