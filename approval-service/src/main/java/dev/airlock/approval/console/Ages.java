package dev.airlock.approval.console;

import java.time.Duration;

/** Short human descriptions of durations for the queue ("3 min", "2 h 5 min", "expired"). */
final class Ages {

    private Ages() {}

    static String describe(Duration duration) {
        if (duration.isNegative()) {
            return "expired";
        }
        long minutes = duration.toMinutes();
        if (minutes < 1) {
            return duration.toSeconds() + " s";
        }
        if (minutes < 60) {
            return minutes + " min";
        }
        return duration.toHours() + " h " + duration.toMinutesPart() + " min";
    }
}
