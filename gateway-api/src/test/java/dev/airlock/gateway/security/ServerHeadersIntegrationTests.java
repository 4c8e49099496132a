package dev.airlock.gateway.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.TestDatabaseConfiguration;
import dev.airlock.gateway.support.TestSecrets;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/** What the real server (Tomcat, not MockMvc) sends: session cookie attributes, error paths, headers. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@Import({
    TestDatabaseConfiguration.class,
    TestSecrets.class,
    dev.airlock.gateway.support.MovableClock.Configuration.class
})
class ServerHeadersIntegrationTests {

    @LocalServerPort
    int port;

    private final HttpClient http =
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String sessionCookie(HttpResponse<String> response) {
        List<String> cookies = response.headers().allValues("Set-Cookie");
        return cookies.stream()
                .filter(c -> c.startsWith("JSESSIONID="))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theSessionCookieIsHttpOnlyAndSameSiteLaxAndNotSecureWhenNoTrustedProxySaysHttps() throws Exception {
        String plain = sessionCookie(get("/login"));
        assertThat(plain)
                .containsIgnoringCase("HttpOnly")
                .containsIgnoringCase("SameSite=Lax")
                .doesNotContainIgnoringCase("Secure;")
                .doesNotEndWithIgnoringCase("Secure");
        // No proxy is trusted by default: the header is ignored (RequestBoundsIntegrationTests trusts one).
        String claimed = sessionCookie(get("/login", "X-Forwarded-Proto", "https"));
        assertThat(claimed)
                .containsIgnoringCase("HttpOnly")
                .containsIgnoringCase("SameSite=Lax")
                .doesNotContainIgnoringCase("Secure;")
                .doesNotEndWithIgnoringCase("Secure");
    }

    @Test
    void aHeaderTheFirewallRefusesIsABadRequestNotAnError() throws Exception {
        // A UTF-8 right-to-left override sent as raw bytes: read as ISO-8859-1, it holds a C1 control.
        byte[] body = "{\"tool\":\"echo\",\"arguments\":{\"message\":\"x\"}}"
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            var out = socket.getOutputStream();
            out.write(("POST /api/v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                            + dev.airlock.gateway.support.AgentApi.ACME
                            + "\r\nContent-Type: application/json\r\nContent-Length: "
                            + body.length + "\r\nConnection: close\r\nIdempotency-Key: key-")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.write(new byte[] {(byte) 0xe2, (byte) 0x80, (byte) 0xae});
            out.write("\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            String status =
                    new String(socket.getInputStream().readNBytes(12), java.nio.charset.StandardCharsets.US_ASCII);
            assertThat(status).isEqualTo("HTTP/1.1 400");
        }
    }

    @Test
    void aRefusalTellsEachCallerWhatWouldAuthenticateIt() throws Exception {
        HttpResponse<String> person = get("/api/v1/approvals");
        assertThat(person.statusCode()).isEqualTo(401);
        assertThat(person.body()).contains("personal access token").doesNotContain("agent key");
        HttpResponse<String> agent = get("/api/v1/tools");
        assertThat(agent.statusCode()).isEqualTo(401);
        assertThat(agent.body()).contains("agent key");
        HttpResponse<String> elsewhere = get("/actuator/env");
        assertThat(elsewhere.statusCode()).isEqualTo(401);
        assertThat(elsewhere.body()).doesNotContain("agent key");
    }

    @Test
    void theErrorPathIsNotAPage() throws Exception {
        HttpResponse<String> error = get("/error");
        assertThat(error.statusCode()).isEqualTo(404);
        assertThat(error.body()).doesNotContain("999").contains("\"status\":404");
    }

    @Test
    void theApiDocumentAndItsUiHaveAContentSecurityPolicy() throws Exception {
        for (String path : List.of("/v3/api-docs", "/swagger-ui/index.html")) {
            HttpResponse<String> response = get(path);
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Security-Policy"))
                    .as(path)
                    .hasValueSatisfying(csp ->
                            assertThat(csp).contains("default-src 'none'").contains("frame-ancestors 'none'"));
        }
    }

    @Test
    void metricsAreNotExposedWhereNobodyMayReadThem() throws Exception {
        assertThat(get("/actuator/health").statusCode()).isEqualTo(200);
        assertThat(get("/actuator/metrics").statusCode()).isNotEqualTo(200);
        assertThat(get("/actuator/metrics", "Authorization", "Bearer test-scrape-token")
                        .statusCode())
                .isNotEqualTo(200);
    }

    @Test
    void prometheusScrapesWithItsTokenOnly() throws Exception {
        HttpResponse<String> run = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/runs?wait=PT20S"))
                        .header("Authorization", "Bearer " + dev.airlock.gateway.support.AgentApi.ACME)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"tool\":\"echo\",\"arguments\":{\"message\":\"scraped\"}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(run.statusCode()).as(run.body()).isEqualTo(201);
        assertThat(get("/actuator/prometheus").statusCode()).isEqualTo(401);
        assertThat(get("/actuator/prometheus", "Authorization", "Bearer wrong-token")
                        .statusCode())
                .isEqualTo(401);
        assertThat(get("/actuator/prometheus", "Authorization", "Bearer " + dev.airlock.gateway.support.AgentApi.ACME)
                        .statusCode())
                .isEqualTo(401);
        HttpResponse<String> scraped = get("/actuator/prometheus", "Authorization", "Bearer test-scrape-token");
        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.body())
                .contains("airlock_runs_ended_total{")
                .contains("tenant=\"acme\"")
                .contains("airlock_runs_duration_seconds")
                .contains("airlock_approvals_pending{");
    }
}
