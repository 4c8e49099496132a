package dev.airlock.gateway.tool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Which input schemas of upstream tools are accepted: nothing that could make the validator look elsewhere. */
class SchemaArgumentsTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            a plain object                          | {"type":"object","properties":{"a":{"type":"string"}}}                                             | accepted
            a property named id                     | {"type":"object","properties":{"id":{"type":"string"}}}                                            | accepted
            properties named as keywords            | {"type":"object","properties":{"enum":{"type":"string"},"$schema":{"type":"string"}}}              | accepted
            an id in a default value                | {"type":"object","properties":{"a":{"type":"object","default":{"id":"x"}}}}                        | accepted
            a local reference                       | {"type":"object","properties":{"a":{"$ref":"#/definitions/b"}},"definitions":{"b":{"type":"string"}}} | accepted
            a top-level $id                         | {"$id":"http://x.example/s","type":"object"}                                                       | identifier
            a nested draft-04 id                    | {"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"a":{"id":"http://x.example/","$ref":"#/definitions/b"}}} | identifier
            a nested $schema elsewhere              | {"type":"object","properties":{"a":{"$schema":"http://x.example/meta","type":"string"}}}           | $schema
            a remote reference                      | {"type":"object","properties":{"a":{"$ref":"http://x.example/s"}}}                                | refers outside
            a remote reference under a named schema | {"type":"object","properties":{"enum":{"$ref":"http://x.example/s"}}}                             | refers outside
            """)
    void refusesWhatCouldMakeTheValidatorLookElsewhere(String what, String schema, String expected) {
        Map<String, Object> parsed = JSON.readValue(schema, new TypeReference<Map<String, Object>>() {});
        String problem = SchemaArguments.problem(parsed);
        if (expected.equals("accepted")) {
            assertThat(problem).as(what).isNull();
        } else {
            assertThat(problem).as(what).isNotNull().contains(expected);
        }
    }

    @org.junit.jupiter.api.Test
    void aDefaultTooLongToCopyIntoEveryCallOrNotANumberItCanSendRefusesTheSchema() {
        Map<String, Object> long_ = Map.of(
                "type", "object", "properties", Map.of("note", Map.of("type", "string", "default", "x".repeat(5000))));
        assertThat(SchemaArguments.problem(long_)).contains("the default of note is longer than 4096 characters");
        Map<String, Object> infinite = Map.of(
                "type",
                "object",
                "properties",
                Map.of("n", Map.of("type", "number", "default", Double.POSITIVE_INFINITY)));
        assertThat(SchemaArguments.problem(infinite))
                .contains("a default cannot be sent: arguments: a number too large");
        Map<String, Object> fine =
                Map.of("type", "object", "properties", Map.of("n", Map.of("type", "integer", "default", 3)));
        assertThat(SchemaArguments.problem(fine)).isNull();
    }
}
