package dev.airlock.persistence.run;

import java.util.Locale;

/** The two captured streams of a process. */
public enum StreamName {
    STDOUT,
    STDERR;

    /** The lower-case name used in URLs, JSON and the database. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The stream with the given lower-case name, or empty. */
    public static java.util.Optional<StreamName> fromKey(String key) {
        for (StreamName stream : values()) {
            if (stream.key().equals(key)) {
                return java.util.Optional.of(stream);
            }
        }
        return java.util.Optional.empty();
    }
}
