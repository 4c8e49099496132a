package dev.airlock.kernel.problem;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestTextTests {

    @ParameterizedTest
    @CsvSource({
        "plain, -1",
        "a\ud83d\ude00b, -1",
        "\ud83d\ude00\ud83d\ude00, -1",
        "a\ud800b, 1",
        "ab\ud800, 2",
        "\udc00ab, 0",
        "\ud83d\ude00\ude00, 2",
        "\ud800\ud800\udc00, 0"
    })
    void findsTheFirstHalfOfAPairWithoutItsOtherHalf(String text, int index) {
        assertThat(RequestText.firstUnpairedSurrogate(text)).isEqualTo(index);
    }
}
