package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.kernel.problem.InvalidRequest;
import org.junit.jupiter.api.Test;

/** Line ranges of an output excerpt at their edges. */
class OutputExcerptTests {

    private static final String THREE = "one\ntwo\nthree\n";

    @Test
    void aRangeFromTheLastIntegerIsPastTheEndNotAnError() {
        OutputExcerpt excerpt = OutputExcerpt.of("run", "echo", "stdout", THREE, Integer.MAX_VALUE, null, null);
        assertThat(excerpt.lines()).isEmpty();
        assertThat(excerpt.totalLines()).isEqualTo(3);
    }

    @Test
    void aRangeEndingBeforeItStartsIsRefusedSayingSo() {
        assertThatThrownBy(() -> OutputExcerpt.of("run", "echo", "stdout", THREE, 3, 2, null))
                .isInstanceOf(InvalidRequest.class)
                .hasMessageContaining("from=3, to=2");
        assertThat(OutputExcerpt.of("run", "echo", "stdout", THREE, 2, null, null)
                        .lines())
                .extracting(OutputExcerpt.Line::text)
                .containsExactly("two", "three");
    }
}
