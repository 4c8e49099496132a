package dev.airlock.gateway.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void aSchemaThatRefersToItselfWithoutEndIsRefusedAndNeverOverflowsAValidation() {
        for (Map<String, Object> endless : java.util.List.<Map<String, Object>>of(
                Map.of("type", "object", "$ref", "#"),
                Map.of("$defs", Map.of("a", Map.of("$ref", "#/$defs/a")), "$ref", "#/$defs/a"))) {
            assertThatThrownBy(() -> ArgumentSchema.compile(endless))
                    .as("%s", endless)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("the input schema refers to itself without end");
        }
        // A cycle that only a value with 'x' walks into compiles; that value is refused, not a crash.
        ArgumentSchema onlyWithX = ArgumentSchema.compile(
                Map.of("type", "object", "properties", Map.of("x", Map.of("$ref", "#/properties/x"))));
        assertThat(onlyWithX.problems(Map.of("x", 1)))
                .singleElement()
                .asString()
                .contains("refers to itself without end");
        // A recursive schema that steps into the value each time is a tree, and fine.
        ArgumentSchema tree = ArgumentSchema.compile(Map.of(
                "type",
                "object",
                "properties",
                Map.of("children", Map.of("type", "array", "items", Map.of("$ref", "#")))));
        assertThat(tree.problems(Map.of("children", java.util.List.of(Map.of("children", java.util.List.of())))))
                .isEmpty();
    }
}
