package dev.airlock.sanitizer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Test helper: feeds input to the sanitizer whole, byte by byte or in random chunks. */
final class Feed {

    private Feed() {}

    static String whole(byte[] input, SanitizerPolicy policy) {
        return TerminalSanitizer.sanitize(input, policy).text();
    }

    static String byteByByte(byte[] input, SanitizerPolicy policy) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TerminalSanitizer sanitizer = TerminalSanitizer.create(policy, out::write);
        for (int i = 0; i < input.length; i++) {
            sanitizer.write(input, i, 1);
        }
        sanitizer.finish();
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Chunks of random sizes from 0 to {@code maxChunk}, including empty writes. */
    static String randomChunks(byte[] input, SanitizerPolicy policy, Random random, int maxChunk) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TerminalSanitizer sanitizer = TerminalSanitizer.create(policy, out::write);
        int i = 0;
        while (i < input.length) {
            int n = Math.min(input.length - i, random.nextInt(maxChunk + 1));
            sanitizer.write(input, i, n);
            i += n;
        }
        sanitizer.finish();
        return out.toString(StandardCharsets.UTF_8);
    }

    static byte[] ascii(String notation) {
        return AuditView.decode(notation);
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
