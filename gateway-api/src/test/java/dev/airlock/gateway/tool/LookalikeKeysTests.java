package dev.airlock.gateway.tool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Keys a server could read as another key are refused; distinct keys are not. */
class LookalikeKeysTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> DECLARED = Set.of("namespace", "Kind", "replicas");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            the declared keys                           | {"namespace":"a","Kind":"b"}              |
            an undeclared key unlike any other          | {"namespace":"a","labels":{"x":"1"}}      |
            a second key with the long s                | {"namespace":"dev","name\\u017fpace":"prod"} | "namespace" and "name\\u017fpace"
            an undeclared key with the long s alone     | {"name\\u017fpace":"prod"}                 | "namespace" and "name\\u017fpace"
            a declared key in other letter case         | {"NAMESPACE":"prod"}                      | "namespace" and "NAMESPACE"
            the Kelvin sign for a K                     | {"\\u212aind":"x"}                         | "Kind" and "\\u212aind"
            a full-width form                           | {"\\uff4eamespace":"x"}                    | "namespace" and "\\uff4eamespace"
            two nested keys that read as one            | {"labels":{"env":"a","ENV":"b"}}          | "env" and "ENV"
            nested in a list                            | {"items":[{"id":1},{"Id":2,"ID":3}]}      | "Id" and "ID"
            the same nested key in two objects          | {"items":[{"id":1},{"id":2}]}             |
            """)
    void refusesKeysAServerCouldReadAsAnother(String what, String arguments, String twins) {
        Object parsed = JSON.readValue(arguments, new TypeReference<Map<String, Object>>() {});
        String problem = LookalikeKeys.problem(parsed, DECLARED);
        if (twins == null) {
            assertThat(problem).as(what).isNull();
        } else {
            assertThat(problem).as(what).contains("the keys " + twins + " differ only by letter case");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            namespace     | namespace
            name\u017fpace | namespace
            \u212aind      | kind
            Stra\u00dfe    | strasse
            """)
    void foldsCaseAndCompatibilityForms(String key, String folded) {
        assertThat(LookalikeKeys.folded(key)).isEqualTo(folded);
    }
}
