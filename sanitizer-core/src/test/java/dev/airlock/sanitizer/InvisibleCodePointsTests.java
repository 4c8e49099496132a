package dev.airlock.sanitizer;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.lang.UCharacter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checked-in invisible table against ICU4J's Unicode data, code point by code point. */
class InvisibleCodePointsTests {

    @Test
    void tableMatchesIcuForEveryCodePoint() {
        List<String> differences = new ArrayList<>();
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            if (InvisibleCodePoints.isInvisible(cp) != InvisibleCodePointsGenerator.isInvisibleByIcu(cp)) {
                differences.add(String.format("U+%04X", cp));
            }
        }
        assertThat(differences)
                .as(
                        "table differs from ICU4J (Unicode %s); regenerate with InvisibleCodePointsGenerator",
                        UCharacter.getUnicodeVersion())
                .isEmpty();
    }

    @Test
    void sanitizerRemovesEveryInvisibleCodePoint() {
        StringBuilder input = new StringBuilder("<");
        int count = 0;
        for (int cp = 0xA0; cp <= Character.MAX_CODE_POINT; cp++) {
            if (InvisibleCodePoints.isInvisible(cp) && (cp < 0xD800 || cp > 0xDFFF)) {
                input.appendCodePoint(cp);
                count++;
            }
        }
        input.append('>');
        TerminalSanitizer.Result result = TerminalSanitizer.sanitize(
                input.toString().getBytes(StandardCharsets.UTF_8), SanitizerPolicy.defaults());
        assertThat(result.text()).isEqualTo("<>");
        assertThat(result.report().invisible()).isEqualTo(count);
    }

    @Test
    void keepsOrdinaryLettersSymbolsAndEmoji() {
        for (int cp : new int[] {'a', 0xE9, 0x65E5, 0xD55C, 0x5D0, 0x627, 0x1F600, 0x2764, 0xFFFD}) {
            assertThat(InvisibleCodePoints.isInvisible(cp)).as("U+%04X", cp).isFalse();
        }
    }
}
