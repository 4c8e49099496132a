package dev.airlock.benchmarks;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * Deterministic benchmark inputs of four shapes: plain ASCII build logs, SGR-coloured logs with
 * progress redraws, a hostile mix of control traffic and invisible characters, and multilingual
 * Unicode text with emoji sequences. Same seed, same bytes, on every machine.
 */
public final class Corpora {

    /** The seed every corpus is generated from. */
    public static final long SEED = 20261129L;

    private Corpora() {}

    /** {@code size} bytes of the named corpus: plain, colored, hostile or unicode. */
    public static byte[] generate(String name, int size) {
        Random random = new Random(SEED);
        return switch (name) {
            case "plain" -> plain(random, size);
            case "colored" -> colored(random, size);
            case "hostile" -> hostile(random, size);
            case "unicode" -> unicode(random, size);
            default -> throw new IllegalArgumentException("unknown corpus " + name);
        };
    }

    private static byte[] plain(Random random, int size) {
        String[] words = {
            "INFO",
            "DEBUG",
            "compiling",
            "src/main/java/Foo.java",
            "test",
            "passed",
            "[12/340]",
            "ok",
            "warning:",
            "unused",
            "variable",
            "x",
            "=",
            "42",
            "--",
            "done"
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + 256);
        while (out.size() < size) {
            int n = 4 + random.nextInt(11);
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < n; i++) {
                line.append(i == 0 ? "" : " ").append(words[random.nextInt(words.length)]);
            }
            out.writeBytes(ascii(line.append('\n').toString()));
        }
        return Arrays.copyOf(out.toByteArray(), size);
    }

    private static byte[] colored(Random random, int size) {
        String[] sgr = {
            "\u001b[31m",
            "\u001b[0m",
            "\u001b[1;32m",
            "\u001b[38;5;208m",
            "\u001b[38;2;10;20;30m",
            "\u001b[m",
            "\u001b[4m"
        };
        String[] words = {"PASS", "FAIL", "src/app.ts:12:4", "error", "expected", "received", "npm", "build", "ok"};
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + 256);
        while (out.size() < size) {
            StringBuilder line = new StringBuilder();
            int n = 3 + random.nextInt(8);
            for (int i = 0; i < n; i++) {
                if (random.nextDouble() < 0.4) {
                    line.append(sgr[random.nextInt(sgr.length)]);
                }
                line.append(words[random.nextInt(words.length)]).append(' ');
            }
            if (random.nextDouble() < 0.1) {
                line.append("\u001b[2K\r");
            }
            out.writeBytes(ascii(line.append("\u001b[0m\n").toString()));
        }
        return Arrays.copyOf(out.toByteArray(), size);
    }

    private static byte[] hostile(Random random, int size) {
        byte[][] pieces = {
            ascii("\u001b[2J"),
            ascii("\u001b[H"),
            ascii("\u001b]8;;https://example.invalid\u001b\\label\u001b]8;;\u001b\\"),
            ascii("\u001b]52;c;SGVsbG8=\u0007"),
            ascii("\u001bP1$qm\u001b\\"),
            {(byte) 0x9b, '3', '1', 'm'},
            {(byte) 0x9d, '0', ';', 't', 'i', 't', 'l', 'e', (byte) 0x9c},
            {'\r'},
            {'\b'},
            ascii("\u001b[" + "9".repeat(64) + "m"),
            ascii("\u001b_apc\u001b\\"),
            utf8("\u202e"),
            utf8("\udb40\udc01"),
            utf8("\ufe0f"),
            utf8("\u2028"),
            {(byte) 0xff, (byte) 0xfe},
            ascii("ok "),
            ascii("text "),
            {0x1b},
            ascii("\u001b["),
            ascii("\u001b]0;"),
        };
        byte[] visible = ascii("visible words ");
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + 256);
        while (out.size() < size) {
            out.writeBytes(pieces[random.nextInt(pieces.length)]);
            if (random.nextDouble() < 0.5) {
                out.writeBytes(visible);
            }
        }
        return Arrays.copyOf(out.toByteArray(), size);
    }

    private static byte[] unicode(Random random, int size) {
        String[] samples = {
            "日本語のテキスト ",
            "한국어 문장 ",
            "Ünïcödé ",
            "emoji 👨\u200d👩\u200d👧 ",
            "עברית ",
            "العربية ",
            "हिन्दी ",
            "plain ascii words ",
            "\n"
        };
        StringBuilder text = new StringBuilder();
        int bytes = 0;
        while (bytes < size) {
            String sample = samples[random.nextInt(samples.length)];
            int n = utf8(sample).length;
            if (bytes + n > size) {
                break;
            }
            text.append(sample);
            bytes += n;
        }
        return utf8(text.toString());
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
