package dev.airlock.kernel.problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class InvalidRequestTests {

    @Test
    void listsAtMostTwentyErrorsAndCountsTheRest() {
        List<String> errors = IntStream.range(0, 140_000)
                .mapToObj(i -> "arguments.k" + i + ": unknown parameter")
                .toList();
        InvalidRequest problem = InvalidRequest.arguments("echo", errors);
        @SuppressWarnings("unchecked")
        List<String> listed = (List<String>) problem.properties().get("errors");
        assertThat(listed).hasSize(21).startsWith("arguments.k0: unknown parameter");
        assertThat(listed.getLast()).isEqualTo("... and 139980 more errors");
        assertThat(problem.getMessage()).hasSizeLessThan(2_000);
        assertThat(InvalidRequest.arguments("echo", errors.subList(0, 20))
                        .properties()
                        .get("errors"))
                .isEqualTo(errors.subList(0, 20));
    }

    @ParameterizedTest
    @CsvSource({
        "2026-12-01T00:00:00Z, 2026-12-01T00:00:00Z",
        " 0001-01-01T00:00:00Z , 0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999Z, 9999-12-31T23:59:59.999999Z"
    })
    void readsInstantsWithinTheYearsOneTo9999(String text, String expected) {
        assertThat(InvalidRequest.instant("from", text)).isEqualTo(Instant.parse(expected));
    }

    @ParameterizedTest
    @CsvSource({
        "-5000-01-01T00:00:00Z, between the years 1 and 9999",
        "+300000-01-01T00:00:00Z, between the years 1 and 9999",
        "0000-12-31T23:59:59Z, between the years 1 and 9999",
        "+10000-01-01T00:00:00Z, between the years 1 and 9999",
        "yesterday, not an ISO-8601 instant",
        "2026-12-01, not an ISO-8601 instant"
    })
    void refusesOtherInstantsNamingTheField(String text, String why) {
        assertThatThrownBy(() -> InvalidRequest.instant("to", text))
                .isInstanceOf(InvalidRequest.class)
                .hasMessageContaining("'to'")
                .hasMessageContaining(why)
                .satisfies(e -> assertThat(((InvalidRequest) e).properties()).containsEntry("field", "to"));
    }
}
