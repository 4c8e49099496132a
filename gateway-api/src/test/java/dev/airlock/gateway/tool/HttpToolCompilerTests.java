package dev.airlock.gateway.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.settings.BoundSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.problem.InvalidRequest;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** HTTP tools as platform teams write them: compiled, rendered, and refused where they cannot be honoured. */
class HttpToolCompilerTests {

    private static final String UPSTREAM = "airlock.tenants.acme.upstreams.deploy.";
    private static final String TOOL = "airlock.tenants.acme.tools.restart.";

    private static ToolCatalog catalog(Map<String, String> entries) {
        Map<String, String> all = new HashMap<>(Map.of(
                UPSTREAM + "base-url", "https://deploy.example.com/v1",
                UPSTREAM + "auth.type", "bearer",
                UPSTREAM + "auth.token", "env:DEPLOY_TOKEN",
                TOOL + "http.upstream", "deploy",
                TOOL + "http.method", "POST",
                TOOL + "http.path", "/services/{service}/restarts",
                TOOL + "http.query.env", "{environment}",
                TOOL + "http.body", "{\"drain\": {drain}, \"tags\": [{service}, \"x\"], \"n\": {count}}",
                TOOL + "parameters.service.pattern", "[a-z]+"));
        all.putAll(Map.of(
                TOOL + "parameters.environment.values[0]", "staging",
                TOOL + "parameters.environment.values[1]", "production",
                TOOL + "parameters.drain.type", "boolean",
                TOOL + "parameters.count.type", "integer"));
        all.putAll(entries);
        all.values().removeIf(String::isEmpty);
        return BoundSettings.bind(all).catalog();
    }

    @Test
    void rendersTheExactRequestWithTypedJsonValues() {
        Tool tool = catalog(Map.of()).find("acme", "restart").orElseThrow();
        RenderedRequest request = ToolArguments.check(
                        tool, Map.of("service", "billing", "environment", "production", "drain", true, "count", 7))
                .request();
        assertThat(request).isNotNull();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.url()).isEqualTo("https://deploy.example.com/v1/services/billing/restarts?env=production");
        assertThat(new String(request.body(), StandardCharsets.UTF_8))
                .isEqualTo("{\"drain\":true,\"tags\":[\"billing\",\"x\"],\"n\":7}");
        assertThat(request.headers()).containsExactly(new RenderedRequest.Header("Content-Type", "application/json"));
        assertThat(request.idempotent()).isFalse();
        assertThat(tool.upstream().auth().shown()).isEqualTo("[secret DEPLOY_TOKEN]");
        assertThat(tool.snapshot().http()).containsEntry("upstream", "deploy").containsEntry("method", "POST");
    }

    @Test
    void aValueIsNeverSplicedIntoTheBodysText() {
        Tool tool = catalog(Map.of()).find("acme", "restart").orElseThrow();
        RenderedRequest request = ToolArguments.check(
                        tool, Map.of("service", "billing", "environment", "staging", "drain", false, "count", 1))
                .request();
        assertThat(new String(request.body(), StandardCharsets.UTF_8)).contains("\"drain\":false");
        Tool free = catalog(Map.of(TOOL + "parameters.service.pattern", ".+"))
                .find("acme", "restart")
                .orElseThrow();
        assertThat(ToolArguments.check(
                                free, Map.of("service", "a%2Fb", "environment", "staging", "drain", true, "count", 1))
                        .request()
                        .url())
                .as("a value's characters stay inside its segment, encoded")
                .contains("/services/a%252Fb/restarts");
        assertThatThrownBy(() -> ToolArguments.check(
                        free, Map.of("service", "a/b", "environment", "staging", "drain", true, "count", 1)))
                .as("a slash in a path value is refused: servers that decode %2F would route it elsewhere")
                .hasMessageContaining("arguments.service: may not contain '/'");
        // What servers that fold Unicode (NFKC, best fit) read as '/', '\\' or '..' is refused as those are.
        for (String lookAlike : List.of("a\uFF0Fb", "a\uFF3Cb", "a\u2215b", "a\u2044b")) {
            assertThatThrownBy(() -> ToolArguments.check(
                            free, Map.of("service", lookAlike, "environment", "staging", "drain", true, "count", 1)))
                    .as(lookAlike)
                    .hasMessageContaining(
                            "arguments.service: may not contain '/' or '\\' (nor a character read as one)");
        }
        for (String dots : List.of("\u2025", "\uFF0E\uFF0E", "\uFF0E")) {
            assertThatThrownBy(() -> ToolArguments.check(
                            free, Map.of("service", dots, "environment", "staging", "drain", true, "count", 1)))
                    .as(dots)
                    .hasMessageContaining("arguments.service: makes a URL path segment empty, '.' or '..'");
        }
        assertThat(ToolArguments.check(
                                free,
                                Map.of("service", "caf\u00E9", "environment", "staging", "drain", true, "count", 1))
                        .request()
                        .url())
                .as("other characters are sent, encoded")
                .contains("/services/caf%C3%A9/restarts");
        RenderedRequest quoted = ToolArguments.check(
                        free,
                        Map.of(
                                "service",
                                "x\",\"admin\":true,\"y\":\"",
                                "environment",
                                "staging",
                                "drain",
                                true,
                                "count",
                                1))
                .request();
        assertThat(new String(quoted.body(), StandardCharsets.UTF_8))
                .contains("\"tags\":[\"x\\\",\\\"admin\\\":true,\\\"y\\\":\\\"\",\"x\"]");
        assertThat(quoted.url()).contains("/services/x%22%2C%22admin%22%3Atrue%2C%22y%22%3A%22/restarts");
    }

    @Test
    void aPathValueThatWouldBeADotSegmentIsRefused() {
        Tool tool = catalog(Map.of(TOOL + "parameters.service.pattern", ".+"))
                .find("acme", "restart")
                .orElseThrow();
        assertThatThrownBy(() -> ToolArguments.check(
                        tool, Map.of("service", "..", "environment", "staging", "drain", true, "count", 1)))
                .isInstanceOf(InvalidRequest.class)
                .hasMessageContaining("arguments.service");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            argv and http                 | airlock.tenants.acme.tools.restart.argv[0]          | echo                                   | airlock.tenants.acme.tools.restart
            an upstream that is not there | airlock.tenants.acme.tools.restart.http.upstream    | nowhere                                | airlock.tenants.acme.tools.restart.http.upstream
            a parameter inside a string   | airlock.tenants.acme.tools.restart.http.body        | '{"d": {drain}, "n": {count}, "s": "{service}"}' | airlock.tenants.acme.tools.restart.http.body
            a body that is not JSON       | airlock.tenants.acme.tools.restart.http.body        | '{"d": {drain} {count} {service}'      | airlock.tenants.acme.tools.restart.http.body
            an unknown parameter          | airlock.tenants.acme.tools.restart.http.path        | /services/{servize}                    | airlock.tenants.acme.tools.restart.http.path
            a parameter used nowhere      | airlock.tenants.acme.tools.restart.http.query.env   | production                             | airlock.tenants.acme.tools.restart.parameters.environment
            a credential header           | airlock.tenants.acme.tools.restart.http.headers.Authorization | 'Bearer {service}'           | airlock.tenants.acme.tools.restart.http.headers.Authorization
            a framing header              | airlock.tenants.acme.tools.restart.http.headers.Transfer-Encoding | chunked                  | airlock.tenants.acme.tools.restart.http.headers.Transfer-Encoding
            a dot segment                 | airlock.tenants.acme.tools.restart.http.path        | /a/../{service}                        | airlock.tenants.acme.tools.restart.http.path
            a path without a slash        | airlock.tenants.acme.tools.restart.http.path        | services/{service}                     | airlock.tenants.acme.tools.restart.http.path
            a method that is not one      | airlock.tenants.acme.tools.restart.http.method      | 'PO ST'                                | airlock.tenants.acme.tools.restart.http.method
            a base URL with credentials   | airlock.tenants.acme.upstreams.deploy.base-url      | https://user:pw@deploy.example.com/    | airlock.tenants.acme.upstreams.deploy.base-url
            a base URL with a query       | airlock.tenants.acme.upstreams.deploy.base-url      | https://deploy.example.com/?a=b        | airlock.tenants.acme.upstreams.deploy.base-url
            a base URL of another scheme  | airlock.tenants.acme.upstreams.deploy.base-url      | file:///etc/passwd                     | airlock.tenants.acme.upstreams.deploy.base-url
            an auth without its secret    | airlock.tenants.acme.upstreams.deploy.auth.token    | ''                                     | airlock.tenants.acme.upstreams.deploy.auth.token
            a process's setting           | airlock.tenants.acme.tools.restart.env.X            | y                                      | airlock.tenants.acme.tools.restart.env
            a process's sandbox           | airlock.tenants.acme.tools.restart.sandbox.network  | true                                   | airlock.tenants.acme.tools.restart.sandbox
            a parameter as a JSON key     | airlock.tenants.acme.tools.restart.http.body        | '{{service}: 1, "d": {drain}, "n": {count}}' | airlock.tenants.acme.tools.restart.http.body
            a misspelt name in a string   | airlock.tenants.acme.tools.restart.http.body        | '{"d": {drain}, "n": {count}, "s": [{service}], "t": "{servce}"}' | airlock.tenants.acme.tools.restart.http.body
            part of a path segment        | airlock.tenants.acme.tools.restart.http.path        | /services/v{service}                   | airlock.tenants.acme.tools.restart.http.path
            two parameters in a segment   | airlock.tenants.acme.tools.restart.http.path        | /services/{service}{environment}       | airlock.tenants.acme.tools.restart.http.path
            another credential's key      | airlock.tenants.acme.upstreams.deploy.auth.username | robot                                  | airlock.tenants.acme.upstreams.deploy.auth.username
            """)
    void refusesWhatItCannotHonourNamingTheKey(String what, String key, String value, String refusedKey) {
        assertThatThrownBy(() -> catalog(Map.of(key, value)))
                .as(what)
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e ->
                        assertThat(((InvalidConfigurationException) e).key()).isEqualTo(refusedKey));
    }

    @Test
    void aToolMayNotSetTheHeaderItsUpstreamsCredentialGoesIn() {
        Map<String, String> entries = new HashMap<>();
        entries.put(UPSTREAM + "auth.type", "header");
        entries.put(UPSTREAM + "auth.token", "");
        entries.put(UPSTREAM + "auth.header-name", "X-Api-Key");
        entries.put(UPSTREAM + "auth.value", "env:DEPLOY_KEY");
        assertThat(catalog(entries).find("acme", "restart")).isPresent();
        entries.put(TOOL + "http.headers.x-api-key", "{service}");
        assertThatThrownBy(() -> catalog(entries))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).key())
                        .isEqualTo(TOOL + "http.headers.x-api-key"));
    }

    @Test
    void aBodyOnAGetIsRefused() {
        assertThatThrownBy(() -> catalog(Map.of(TOOL + "http.method", "GET")))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith(TOOL + "http.body: a GET request has no body");
    }
}
