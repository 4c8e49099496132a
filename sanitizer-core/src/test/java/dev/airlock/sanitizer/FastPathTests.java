package dev.airlock.sanitizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast paths against the state machine alone ({@link FastPath#NONE}): on seeded random input
 * built to stress them (long clean runs across register and chunk boundaries, TAB and LF inside
 * them, every UTF-8 length next to the code points that need a decision, escape sequences and
 * strings cut anywhere), each path must give the same text and the same report, whole and in
 * random chunks. A failure names its seed; rerun it with {@code -Dairlock.seed=N -Dairlock.cases=1}.
 */
class FastPathTests {

    private static final int CASES = Integer.getInteger("airlock.cases", 2000);
    private static final long BASE_SEED = Long.getLong("airlock.seed", 20261130L);

    /** Code points at and around every boundary of the set the fast path must leave alone. */
    private static final int[] EDGE_CODE_POINTS = edgeCodePoints();

    private static final String[] PIECES = {
        "\u001b[31m",
        "\u001b[0m",
        "\u001b[38;2;1;2;3m",
        "\u001b[",
        "\u001b[12;",
        "\u001b]0;title\u0007",
        "\u001b[1;22;333;4444;55555;666666m",
        "\u001b[1;2;3;4;5;6;7;8;9 !",
        "\u001b]2;a long window title\u001a",
        "\u001bPpayload\tof\u0000a dcs\u0007",
        "\u001b_0123456789abcdef\u0085",
        "\u001b]8;;https://x.invalid\u001b\\",
        "\u001bPq#0\u001b\\",
        "\u001b_apc\u0007",
        "\u001b^pm\u001b\\",
        "\u001bXsos\u0007",
        "\u001b]0;ab\u0018cd",
        "\u001b]0;a\u001b(B",
        "\u001b]0;\u00e9\u0007",
        "\u001b(B",
        "\u001b#8",
        "\u001b\\",
        "\u001b",
        "\u001b ",
        "\u001b\u001b[m",
        "\r",
        "\r\n",
        "\b",
        "\u0000",
        "\u007f",
        "\u0018",
        "\u001a",
        "\t",
        "\n",
        "\u0085",
        "\u009b31m",
        "\u009d0;t\u009c",
        "\u00a9\u200d\u00a9",
        "\ud83d\ude00\u200d\ud83d\ude00",
        "\u203c\u200d\u203c",
        "a\u200db",
        "\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67",
        "\ud83d\ude00\u200d\u200d\ud83d\ude00",
        "\ud83d\ude00\u200d\ufe0f\ud83d\ude00",
        "\ud83d\ude00\u200d\u00a9",
        "\ud83d\ude00\u200da",
        "\u00a9\u200d\u0085",
        "\u2028",
        "\u2029",
        "\ufeff",
        "\ufe0f",
    };

    static List<FastPath> paths() {
        List<FastPath> paths = new ArrayList<>(List.of(FastPath.SCALAR));
        if (FastPath.VECTOR_AVAILABLE) {
            paths.add(FastPath.VECTOR);
        }
        return paths;
    }

    @ParameterizedTest
    @MethodSource("paths")
    void matchesTheStateMachineOnRandomMixedInput(FastPath path) {
        forEachSeed(random -> {
            byte[] input = mixed(random, 1 + random.nextInt(600));
            assertSameAsStateMachine(input, path, random);
        });
    }

    @ParameterizedTest
    @MethodSource("paths")
    void matchesTheStateMachineOnLongCleanRunsWithRareSpecials(FastPath path) {
        forEachSeed(CASES / 10, random -> {
            byte[] input = longRuns(random, 1 + random.nextInt(2000));
            assertSameAsStateMachine(input, path, random);
        });
    }

    @ParameterizedTest
    @MethodSource("paths")
    void matchesTheStateMachineOnRandomUtf8(FastPath path) {
        forEachSeed(random -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int count = random.nextInt(300);
            for (int i = 0; i < count; i++) {
                int pick = random.nextInt(10);
                if (pick < 4) {
                    out.writeBytes(utf8(EDGE_CODE_POINTS[random.nextInt(EDGE_CODE_POINTS.length)]));
                } else if (pick < 8) {
                    int cp = random.nextInt(0x110000);
                    out.writeBytes(utf8(cp >= 0xD800 && cp <= 0xDFFF ? 0xFFFD : cp));
                } else if (pick < 9) {
                    out.write(0x80 + random.nextInt(0x80));
                } else {
                    out.write(0x20 + random.nextInt(0x5f));
                }
            }
            assertSameAsStateMachine(out.toByteArray(), path, random);
        });
    }

    @ParameterizedTest
    @MethodSource("paths")
    void matchesTheStateMachineOnEveryCodePoint(FastPath path) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int cp = 0; cp < 0x110000; cp++) {
            if (cp < 0xD800 || cp > 0xDFFF) {
                out.writeBytes(utf8(cp));
            }
        }
        byte[] input = out.toByteArray();
        assertThat(run(input, path, 65536)).isEqualTo(run(input, FastPath.NONE, 65536));
        // Every lead byte with every second byte, well-formed or not, then a space.
        out.reset();
        for (int b0 = 0x80; b0 < 0x100; b0++) {
            for (int b1 = 0; b1 < 0x100; b1 += 1) {
                out.writeBytes(new byte[] {(byte) b0, (byte) b1, (byte) 0x80, (byte) 0xBF, ' '});
            }
        }
        input = out.toByteArray();
        assertThat(run(input, path, 65536)).isEqualTo(run(input, FastPath.NONE, 65536));
    }

    private static void assertSameAsStateMachine(byte[] input, FastPath path, Random random) {
        Outcome expected = run(input, FastPath.NONE, input.length + 1);
        assertThat(run(input, path, input.length + 1)).isEqualTo(expected);
        assertThat(run(input, path, 1 + random.nextInt(200))).isEqualTo(expected);
        assertThat(run(input, path, 1 + random.nextInt(8))).isEqualTo(expected);
    }

    record Outcome(String text, RemovalReport report) {
        @Override
        public String toString() {
            return AuditView.encode(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) + " " + report.toJson();
        }
    }

    /** The input fed in pieces of {@code chunk} bytes (the last may be shorter). */
    private static Outcome run(byte[] input, FastPath path, int chunk) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TerminalSanitizer sanitizer = TerminalSanitizer.create(SanitizerPolicy.defaults(), out::write, path);
        for (int i = 0; i < input.length; i += chunk) {
            sanitizer.write(input, i, Math.min(chunk, input.length - i));
        }
        sanitizer.finish();
        return new Outcome(out.toString(java.nio.charset.StandardCharsets.UTF_8), sanitizer.report());
    }

    private static byte[] mixed(Random random, int pieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < pieces; i++) {
            switch (random.nextInt(6)) {
                case 0 -> out.writeBytes(Feed.utf8(PIECES[random.nextInt(PIECES.length)]));
                case 1 -> out.writeBytes(utf8(EDGE_CODE_POINTS[random.nextInt(EDGE_CODE_POINTS.length)]));
                case 2 -> out.write(random.nextInt(256));
                default -> out.writeBytes(cleanRun(random, random.nextInt(80)));
            }
        }
        return out.toByteArray();
    }

    private static byte[] longRuns(Random random, int pieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < pieces; i++) {
            int pick = random.nextInt(20);
            if (pick == 0) {
                out.writeBytes(Feed.utf8(PIECES[random.nextInt(PIECES.length)]));
            } else if (pick == 1) {
                out.writeBytes(utf8(EDGE_CODE_POINTS[random.nextInt(EDGE_CODE_POINTS.length)]));
            } else {
                out.writeBytes(cleanRun(random, random.nextInt(300)));
            }
        }
        return out.toByteArray();
    }

    /** Printable ASCII with TAB and LF, the bytes the scan copies without a decision. */
    private static byte[] cleanRun(Random random, int length) {
        byte[] run = new byte[length];
        for (int i = 0; i < length; i++) {
            int pick = random.nextInt(40);
            run[i] = (byte) (pick == 0 ? '\n' : pick == 1 ? '\t' : 0x20 + random.nextInt(0x5f));
        }
        return run;
    }

    private static int[] edgeCodePoints() {
        List<Integer> points = new ArrayList<>();
        int[] anchors = {
            0x7F, 0x80, 0x9F, 0xA0, 0xA9, 0xAD, 0x34F, 0x600, 0x605, 0x61C, 0x6DD, 0x70F, 0x890, 0x8E2, 0x115F, 0x1160,
            0x17B4, 0x180B, 0x180F, 0x200B, 0x200D, 0x200F, 0x2028, 0x202E, 0x203C, 0x2060, 0x206F, 0x3164, 0xD7FF,
            0xE000, 0xFE00, 0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0, 0xFFFB, 0xFFFD, 0xFFFF, 0x10000, 0x110BD, 0x110CD, 0x13430,
            0x1343F, 0x1BCA0, 0x1D173, 0x1D17A, 0x1F600, 0x1F9FF, 0xE0000, 0xE0001, 0xE0FFF, 0xE1000, 0x10FFFF
        };
        for (int anchor : anchors) {
            for (int cp = anchor - 2; cp <= anchor + 2; cp++) {
                if (cp >= 0 && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
                    points.add(cp);
                }
            }
        }
        return points.stream().mapToInt(Integer::intValue).toArray();
    }

    private static byte[] utf8(int cp) {
        return Feed.utf8(Character.toString(cp));
    }

    private static void forEachSeed(SanitizerPropertyTests.Property property) {
        forEachSeed(CASES, property);
    }

    private static void forEachSeed(int cases, SanitizerPropertyTests.Property property) {
        for (int i = 0; i < cases; i++) {
            long seed = BASE_SEED + i;
            try {
                property.check(new Random(seed));
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(
                        "property failed for seed " + seed + " (-Dairlock.seed=" + seed + " -Dairlock.cases=1): "
                                + e.getMessage(),
                        e);
            }
        }
    }

    @Test
    void usesTheVectorPathWhenTheModuleIsPresent() {
        boolean present = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
        assertThat(FastPath.best()).isEqualTo(present ? FastPath.VECTOR : FastPath.SCALAR);
    }
}
