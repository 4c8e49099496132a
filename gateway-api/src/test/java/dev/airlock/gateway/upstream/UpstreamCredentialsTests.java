package dev.airlock.gateway.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.capture.SecretSource;
import dev.airlock.gateway.tool.HttpUpstream;
import dev.airlock.sanitizer.SecretRedactor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The forms of an upstream's credential that are redacted when an upstream echoes them back. */
class UpstreamCredentialsTests {

    private static final String PASSWORD = "p/ss\"w\\0rd+é x";

    private static SecretRedactor redactorOfBasicAuth() throws Exception {
        HttpUpstream.Auth auth =
                new HttpUpstream.Auth("basic", "Authorization", "robot", Map.of("password", "env:ODD_PASSWORD"));
        SecretSource secrets = name -> Optional.ofNullable(name.equals("ODD_PASSWORD") ? PASSWORD : null);
        Map<String, String> values = new LinkedHashMap<>();
        UpstreamCredentials.header(auth, secrets, values);
        return SecretRedactor.of(values);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            as it is                                 | p/ss"w\\0rd+é x
            JSON                                     | p/ss\\"w\\\\0rd+é x
            JSON, slashes escaped                    | p\\/ss\\"w\\\\0rd+é x
            JSON, ASCII only                         | p\\/ss\\"w\\\\0rd+\\u00e9 x
            JSON, ASCII only, upper-case hex         | p\\/ss\\"w\\\\0rd+\\u00E9 x
            a form's percent-encoding                | p%2Fss%22w%5C0rd%2B%C3%A9+x
            percent-encoding                         | p%2Fss%22w%5C0rd%2B%C3%A9%20x
            Base64                                   | cC9zcyJ3XDByZCvDqSB4
            the Basic header's Base64                | cm9ib3Q6cC9zcyJ3XDByZCvDqSB4
            """)
    void anEchoedFormOfTheSecretIsRedacted(String form, String echoed) throws Exception {
        String answer = "{\"you sent\":\"" + echoed + "\"}";
        assertThat(redactorOfBasicAuth().redact(answer))
                .as(form)
                .doesNotContain(echoed)
                .contains("[REDACTED:");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            Go's JSON (HTML-safe)              | a\\u0026b\\u003cc\\u003ed~!'()* e
            JavaScript's encodeURIComponent    | a%26b%3Cc%3Ed~!'()*%20e
            """)
    void anEchoOfWhatOtherLanguagesWriteIsRedacted(String form, String echoed) throws Exception {
        HttpUpstream.Auth auth = new HttpUpstream.Auth("header", "X-Api-Key", null, Map.of("value", "env:ODD_KEY"));
        SecretSource secrets = name -> Optional.ofNullable(name.equals("ODD_KEY") ? "a&b<c>d~!'()* e" : null);
        Map<String, String> values = new LinkedHashMap<>();
        UpstreamCredentials.header(auth, secrets, values);
        assertThat(SecretRedactor.of(values).redact("{\"headers\":\"" + echoed + "\"}"))
                .as(form)
                .doesNotContain(echoed)
                .contains("[REDACTED:");
    }

    @ParameterizedTest
    @CsvSource({"'a\"b/c', 'a\\\"b/c', 'a\\\"b\\/c'", "'tab\there', 'tab\\there', 'tab\\there'", "'é', 'é', 'é'"})
    void jsonEscapesAsSerializersDo(String value, String plain, String slashes) {
        assertThat(UpstreamCredentials.jsonEscaped(value, false, false)).isEqualTo(plain);
        assertThat(UpstreamCredentials.jsonEscaped(value, true, false)).isEqualTo(slashes);
    }
}
