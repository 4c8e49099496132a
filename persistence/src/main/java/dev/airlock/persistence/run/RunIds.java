package dev.airlock.persistence.run;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.UUID;

/**
 * Run ids: UUIDv7 (RFC 9562), a 48-bit Unix millisecond timestamp followed by random bits, so
 * that ids sort by creation time and index well.
 */
public final class RunIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private RunIds() {}

    /** A new UUIDv7 for the current instant of {@code clock}. */
    public static UUID next(Clock clock) {
        long millis = clock.millis();
        long randA = RANDOM.nextInt(1 << 12);
        long msb = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | randA;
        long lsb = RANDOM.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }
}
