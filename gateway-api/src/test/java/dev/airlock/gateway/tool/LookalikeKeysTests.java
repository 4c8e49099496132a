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

    @org.junit.jupiter.api.Test
    void twoDeclaredKeysThatDifferOnlyByCaseAreEachThemselves() {
        Object arguments = Map.of("id", "a", "ID", "b");
        assertThat(LookalikeKeys.problem(arguments, Set.of("id", "ID"))).isNull();
        assertThat(LookalikeKeys.problem(Map.of("Id", "c"), Set.of("id", "ID"))).contains("differ only by letter case");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            the declared keys                           | {"namespace":"a","Kind":"b"}              |
            an undeclared key unlike any other          | {"namespace":"a","labels":{"x":"1"}}      |
            a second key with the long s                | {"namespace":"dev","name\\u017Fpace":"prod"} | "namespace" and "name\\u017Fpace"
            an undeclared key with the long s alone     | {"name\\u017Fpace":"prod"}                 | "namespace" and "name\\u017Fpace"
            a declared key in other letter case         | {"NAMESPACE":"prod"}                      | "namespace" and "NAMESPACE"
            the Kelvin sign for a K                     | {"\\u212Aind":"x"}                         | "Kind" and "\\u212Aind"
            a full-width form                           | {"\\uFF4Eamespace":"x"}                    | "namespace" and "\\uFF4Eamespace"
            two nested keys that read as one            | {"labels":{"env":"a","ENV":"b"}}          | "env" and "ENV"
            nested in a list                            | {"items":[{"id":1},{"Id":2,"ID":3}]}      | "Id" and "ID"
            the same nested key in two objects          | {"items":[{"id":1},{"id":2}]}             |
            an undeclared key beside the declared one   | {"Kind":"a","kind":"b"}                   | "Kind" and "kind"
            a key with a quote in it                    | {"name\\"space":"a","NAME\\"SPACE":"b"} | "name\\"space" and "NAME\\"SPACE"
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
            Stra\u00dfe    | stra\u00dfe
            STRA\u1e9eE    | stra\u00dfe
            """)
    void foldsCaseAndCompatibilityForms(String key, String folded) {
        assertThat(LookalikeKeys.folded(key)).isEqualTo(folded);
    }
}
