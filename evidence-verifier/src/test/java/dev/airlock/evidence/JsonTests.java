package dev.airlock.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The verifier's own JSON reader: what it reads, and what it refuses. */
class JsonTests {

    @Test
    void readsTheValuesBundlesHold() {
        Map<String, Object> object = Json.object(
                "{ \"s\": \"a\\\"b\\\\c\\u00e9\\n\", \"n\": -12.5e1, \"t\": true, \"f\": false, \"z\": null, \"l\": [1, {}, []] }");
        assertThat(object.get("s")).isEqualTo("a\"b\\cé\n");
        assertThat(object.get("n")).isEqualTo(new BigDecimal("-12.5e1"));
        assertThat(object.get("t")).isEqualTo(true);
        assertThat(object.get("f")).isEqualTo(false);
        assertThat(object).containsEntry("z", null);
        assertThat(object.get("l")).isEqualTo(List.of(new BigDecimal("1"), Map.of(), List.of()));
        assertThat(Json.object(Json.quote("x")
                                .replace("\"x\"", "{\"k\":" + Json.quote("line\nbreak \u0001 \"q\"") + "}"))
                        .get("k"))
                .isEqualTo("line\nbreak \u0001 \"q\"");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "{",
                "{\"a\":1,\"a\":2}",
                "{\"a\":1} x",
                "[1,]",
                "{\"a\":tru}",
                "\"\u0001\"",
                "{a:1}",
                "\"\\x\"",
                "[1 2]",
                "+1",
                "01",
                ".5",
                "1.",
                "\"\\u+fff\"",
                "\"\\ud800\"",
                "\"\\udc00x\""
            })
    void refusesWhatIsNotStrictJson(String text) {
        assertThatThrownBy(() -> Json.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesNestingPastItsBound() {
        assertThatThrownBy(() -> Json.parse("[".repeat(Json.MAX_DEPTH + 2) + "]".repeat(Json.MAX_DEPTH + 2)))
                .hasMessageContaining("nested deeper");
    }
}
