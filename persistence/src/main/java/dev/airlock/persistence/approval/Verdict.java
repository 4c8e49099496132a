package dev.airlock.persistence.approval;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** What one human decided. */
public enum Verdict {
    APPROVE,
    DENY;

    /**
     * The one parser of decisions typed or posted by people and bots: exactly {@code APPROVE} or
     * {@code DENY} (or the same word in lower case). Anything else, including blanks, padding,
     * mixed case and other words, is no decision at all.
     */
    public static Optional<Verdict> parse(@Nullable String value) {
        if (value == null) {
            return Optional.empty();
        }
        return switch (value) {
            case "APPROVE", "approve" -> Optional.of(APPROVE);
            case "DENY", "deny" -> Optional.of(DENY);
            default -> Optional.empty();
        };
    }
}
