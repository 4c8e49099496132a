package dev.airlock.sanitizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Both CR policies on the same inputs, written in audit-view notation. */
class CrPolicyTests {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            overwrittenClaimStaysVisible        | check failed\\x0dcheck passed | check failed\\x0acheck passed | check passed
            progressRedrawsKeepHistory          | 10%\\x0d20%\\x0d100%\\x0a       | 10%\\x0a20%\\x0a100%\\x0a       | 100%\\x0a
            shorterRedrawLeavesTail             | abc\\x0dX                      | abc\\x0aX                      | Xbc
            crLfEndsLine                        | abc\\x0d\\x0adef               | abc\\x0adef                    | abc\\x0adef
            backspaceMovesCursorLeft            | ab\\x08X                       | abX                            | aX
            backspaceStopsAtLineStart           | \\x08\\x08X                    | X                              | X
            backspaceOverstrikeKeepsLastGlyph   | _\\x08a                        | _a                             | a
            overwritesByCodePoint               | \\xe6\\x97\\xa5\\xe6\\x9c\\xac\\x0dX | \\xe6\\x97\\xa5\\xe6\\x9c\\xac\\x0aX | X\\xe6\\x9c\\xac
            eraseSequenceIsStillRemoved         | 50%\\x1b[2K\\x0ddone           | 50%\\x0adone                   | done
            """)
    void appliesPolicy(String name, String input, String newline, String overwrite) {
        byte[] bytes = AuditView.decode(input.strip());
        assertThat(sanitized(bytes, SanitizerPolicy.defaults())).as("newline").isEqualTo(newline.strip());
        assertThat(sanitized(bytes, SanitizerPolicy.overwrite()))
                .as("overwrite")
                .isEqualTo(overwrite.strip());
    }

    @ParameterizedTest(name = "limit {0}")
    @CsvSource({
        "4, abcdefg\\x0dX, abcdXfg",
        "3, ab\\x0dXYZW, XYZW",
        "1, abc, abc",
    })
    void writesOutLineThatOutgrowsTheBound(int limit, String input, String expected) {
        SanitizerPolicy policy = new SanitizerPolicy(CrPolicy.OVERWRITE, limit);
        assertThat(sanitized(AuditView.decode(input), policy)).isEqualTo(expected);
    }

    private static String sanitized(byte[] input, SanitizerPolicy policy) {
        String whole = Feed.whole(input, policy);
        assertThat(Feed.byteByByte(input, policy)).isEqualTo(whole);
        assertThat(Feed.randomChunks(input, policy, new Random(7), 3)).isEqualTo(whole);
        return AuditView.encode(Feed.utf8(whole));
    }
}
