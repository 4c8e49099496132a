package dev.airlock.approval.request;

import org.jspecify.annotations.Nullable;

/** What counts as a reason a person gave: some visible text, not only spaces, controls or invisible characters. */
public final class Reasons {

    private Reasons() {}

    /** Whether {@code reason} says nothing a reader could see (null, blank, or only invisible characters). */
    public static boolean isEmpty(@Nullable String reason) {
        return reason == null || reason.codePoints().noneMatch(Reasons::visible);
    }

    private static boolean visible(int cp) {
        int type = Character.getType(cp);
        return !Character.isWhitespace(cp)
                && !Character.isSpaceChar(cp)
                && !Character.isISOControl(cp)
                && type != Character.FORMAT
                && type != Character.UNASSIGNED
                && type != Character.NON_SPACING_MARK
                && type != Character.ENCLOSING_MARK
                && !(cp >= 0xFE00 && cp <= 0xFE0F)
                && !(cp >= 0xE0100 && cp <= 0xE01EF)
                && cp != 0x115F
                && cp != 0x1160
                && cp != 0x3164
                && cp != 0xFFA0;
    }
}
