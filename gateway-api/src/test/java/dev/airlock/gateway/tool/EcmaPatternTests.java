package dev.airlock.gateway.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A schema's pattern means what ECMA-262 says it means, where Java's reading would differ: each row
 * is a pattern, a value (line breaks and code units written as Java escapes) and whether an
 * ECMA-262 engine finds the pattern in it.
 */
class EcmaPatternTests {

    @ParameterizedTest(name = "/{0}/ in \"{1}\": {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            ^[a-z0-9-]+$       | dev-1            | true
            ^[a-z0-9-]+$       | dev-1\\n         | false
            ^[a-z0-9-]+$       | dev-1\\r\\n      | false
            ^[a-z0-9-]+$       | dev-1\\u2028     | false
            `(a$|b$)`          | a\\n             | false
            `(a$|b$)`          | xb               | true
            ^.$                | \\u0085          | true
            ^.$                | \\n              | false
            ^.$                | \\u2029          | false
            ^\\S+$             | a\\u00a0b        | false
            ^\\S+$             | ab               | true
            ^\\s$              | \\u3000          | true
            ^\\s$              | \\ufeff          | true
            ^[\\s]$            | \\u00a0          | true
            ^[x\\S]$           | \\u00a0          | false
            ^[x\\S]$           | y                | true
            ^[a[b]$            | [                | true
            ^[a&&b]$           | &                | true
            ^[a&&b]$           | a                | true
            ^[\\b]$            | \\u0008          | true
            a[]                | a                | false
            ^[^]$              | \\n              | true
            ^\\$$              | $                | true
            ^[$]$              | $                | true
            ^\\d{2}$           | 12               | true
            ^\\d{2}$           | ١٢               | false
            ^\\w+$             | é                | false
            ^a\\vb$            | a\\u000bb       | true
            ^a\\vb$            | a\\nb           | false
            ^a\\cJb$           | a\\nb           | true
            ^a\\cjb$           | a*b              | false
            ^[a-zA-Z\\s-']+$   | O'Neil Smith-Li  | true
            ^[\\s-\\uFFFF]$    | \\uff21         | false
            ^[\\x00-\\s]$      | \\u0001         | false
            ^[^\\S]$           | \\u00a0         | true
            ^[^\\S]$           | a                | false
            ^[a-zA-Z0-9_.-]+$  | a.b_c-1          | true
            ^\\d{4}-\\d{2}-\\d{2}$ | 2026-12-02   | true
            `^(?!-)[a-z0-9-]{1,63}(?<!-)$` | dev-1    | true
            `^(?!-)[a-z0-9-]{1,63}(?<!-)$` | dev-     | false
            ^\\p{L}+$          | Straße           | true
            ^a\\x41\\u0042$     | aAB              | true
            ^(?<year>\\d{4})$  | 2026             | true
            ^\\0$              | \\u0000         | true
            \\b                | \\u0438\\u0306   | false
            ^a\\B              | a\\u0301         | false
            ^a\\b              | a\\u0301         | true
            \\bx\\b            | y x z            | true
            ^\\p{Lu}$          | \\u00c9         | true
            ^\\P{Lu}$          | \\u00c9         | false
            ^\\p{Script=Greek}+$ | \\u03b1\\u03b2 | true
            ^\\p{sc=Latin}$    | a                | true
            """)
    void aSchemasPatternMeansWhatEcma262Says(String pattern, String value, boolean found) {
        String unescaped = unescape(value);
        assertThat(Pattern.compile(EcmaPattern.toJava(pattern))
                        .matcher(unescaped)
                        .find())
                .as("/%s/ read as %s", pattern, EcmaPattern.toJava(pattern))
                .isEqualTo(found);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `^(?:(a)|b)+\\1$`
            ^(?<x>a)\\k<x>$
            ^a\\Z
            ^\\Aa
            ^a\\R
            ^\\Qa\\E$
            (?i)^prod$
            (?x)a b
            (?>a)
            ^a*+$
            ^a{2}+$
            ^\\012$
            ^\\c1$
            ^\\x4$
            ^\\u{41}$
            ^\\é$
            ^\\P{Lower}+$
            ^[^\\p{Alpha}]+$
            ^\\p{IsLatin}$
            ^\\p{javaLowerCase}$
            ^\\p{Letter}$
            """)
    void whatTheTwoDialectsReadDifferentlyAndCannotBeRewrittenIsRefused(String pattern) {
        assertThatThrownBy(() -> EcmaPattern.toJava(pattern))
                .as(pattern)
                .isInstanceOf(PatternSyntaxException.class)
                .hasMessageContaining("reads differently in ECMA-262 and Java");
    }

    @Test
    void whatNeitherDialectCanReadStaysUnreadable() {
        assertThatThrownBy(() -> Pattern.compile(EcmaPattern.toJava("[a-"))).isInstanceOf(PatternSyntaxException.class);
        assertThatThrownBy(() -> Pattern.compile(EcmaPattern.toJava("(a"))).isInstanceOf(PatternSyntaxException.class);
        assertThatThrownBy(() -> Pattern.compile(EcmaPattern.toJava("a\\"))).isInstanceOf(PatternSyntaxException.class);
    }

    /** The value with its Java escapes (line feed, carriage return, code unit) read as the characters they name. */
    private static String unescape(String value) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < value.length()) {
                char next = value.charAt(i + 1);
                if (next == 'n') {
                    out.append('\n');
                    i++;
                    continue;
                }
                if (next == 'r') {
                    out.append('\r');
                    i++;
                    continue;
                }
                if (next == 'u') {
                    out.append((char) Integer.parseInt(value.substring(i + 2, i + 6), 16));
                    i += 5;
                    continue;
                }
            }
            out.append(c);
        }
        return out.toString();
    }
}
