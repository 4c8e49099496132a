package dev.airlock.gateway.support;

import dev.airlock.gateway.capture.SecretSource;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Secret values for the tests' tools, in place of the gateway's environment. */
@TestConfiguration(proxyBeanMethods = false)
public class TestSecrets {

    /** The value of the test secret AIRLOCK_TEST_API_TOKEN. */
    public static final String API_TOKEN = "tok-3f9a1c7e-secret-value";

    /** The value of the test secret AIRLOCK_TEST_GLOBEX_TOKEN, injected into a tool of tenant globex. */
    public static final String GLOBEX_TOKEN = "globex-tok-77d2e0b4-secret-value";

    /** The value of the test secret AIRLOCK_TEST_MCP_TOKEN, given to the hostile upstream MCP server. */
    public static final String MCP_TOKEN = "mcp-tok-5b1e9a22-secret-value";

    /** The value of the test secret AIRLOCK_TEST_ODD_PASSWORD: a Basic password that JSON and URLs escape. */
    public static final String ODD_PASSWORD = "p/ss\"w0rd+é x";

    @Bean
    @Primary
    SecretSource testSecretSource() {
        Map<String, String> values = Map.of(
                "AIRLOCK_TEST_API_TOKEN",
                API_TOKEN,
                "AIRLOCK_TEST_GLOBEX_TOKEN",
                GLOBEX_TOKEN,
                "AIRLOCK_TEST_MCP_TOKEN",
                MCP_TOKEN,
                "AIRLOCK_TEST_ODD_PASSWORD",
                ODD_PASSWORD);
        return name -> Optional.ofNullable(values.get(name));
    }
}
