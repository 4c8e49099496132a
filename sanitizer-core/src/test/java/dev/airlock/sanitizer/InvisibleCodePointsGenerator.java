package dev.airlock.sanitizer;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.lang.UProperty;

/**
 * Prints the range table of {@link InvisibleCodePoints} from ICU4J's Unicode data. Run it when
 * the ICU4J version (and so the Unicode version) moves, and paste its output into the table.
 */
final class InvisibleCodePointsGenerator {

    private InvisibleCodePointsGenerator() {}

    /** The contract's invisible set, from ICU4J, without ZERO WIDTH JOINER. */
    static boolean isInvisibleByIcu(int cp) {
        if (cp == InvisibleCodePoints.ZERO_WIDTH_JOINER) {
            return false;
        }
        return UCharacter.getType(cp) == UCharacterCategory.FORMAT
                || UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT)
                || cp >= 0xFE00 && cp <= 0xFE0F
                || cp >= 0xE0100 && cp <= 0xE01EF
                || cp >= 0xE0000 && cp <= 0xE007F
                || cp >= 0x2060 && cp <= 0x206F;
    }

    public static void main(String[] args) {
        System.out.println("// Unicode " + UCharacter.getUnicodeVersion());
        int start = -1;
        for (int cp = 0; cp <= Character.MAX_CODE_POINT + 1; cp++) {
            boolean invisible = cp <= Character.MAX_CODE_POINT && isInvisibleByIcu(cp);
            if (invisible && start < 0) {
                start = cp;
            } else if (!invisible && start >= 0) {
                System.out.printf("0x%04X, 0x%04X,%n", start, cp - 1);
                start = -1;
            }
        }
    }
}
