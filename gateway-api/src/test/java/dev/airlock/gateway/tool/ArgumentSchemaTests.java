package dev.airlock.gateway.tool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** An upstream schema's patterns against agents' values: every way a match can fail ends in a refusal. */
class ArgumentSchemaTests {

    @Test
    void aPatternWhoseMatchRunsOutOfStackRefusesTheValueInsteadOfFailingTheRequest() {
        // Java's matcher recurses once per repetition of an alternation: a long value exhausts the stack.
        ArgumentSchema schema = ArgumentSchema.compile(
                Map.of("type", "object", "properties", Map.of("s", Map.of("type", "string", "pattern", "^(a|b)*$"))));
        String value = "ab".repeat(200_000);
        assertThat(schema.problems(Map.of("s", value)))
                .singleElement()
                .asString()
                .contains("took too long to match; refused");
        assertThat(schema.problems(Map.of("s", "abab"))).isEmpty();
    }
}
