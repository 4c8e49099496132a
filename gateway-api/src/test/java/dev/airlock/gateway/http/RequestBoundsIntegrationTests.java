package dev.airlock.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.TestDatabaseConfiguration;
import dev.airlock.gateway.support.TestSecrets;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * The HTTP edge on the real server: bodies bounded before they are parsed (with and without a
 * declared length), JSON within its depth and length bounds and with each key once, JSON-RPC
 * messages as the protocol says, forwarded headers believed only from the configured proxy
 * (127.0.0.2 here), and an OpenAPI document that names the configured address whatever the
 * request's Host says.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "airlock.http.max-request-body=64KB",
            "airlock.http.trusted-proxies=127.0.0.2",
            "airlock.http.public-url=https://airlock.example.test"
        })
@ActiveProfiles("test")
@Import({
    TestDatabaseConfiguration.class,
    TestSecrets.class,
    dev.airlock.gateway.support.MovableClock.Configuration.class
})
class RequestBoundsIntegrationTests {

    private static final String RUNS = "/api/v1/runs";

    @LocalServerPort
    int port;

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase owner;

    private final HttpClient http =
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    private HttpResponse<String> post(String path, HttpRequest.BodyPublisher body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + AgentApi.ACME)
                .header("Accept", "application/json, text/event-stream")
                .POST(body);
        if (!java.util.Arrays.asList(headers).contains("Content-Type")) {
            request.header("Content-Type", "application/json");
        }
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return post(path, HttpRequest.BodyPublishers.ofString(body));
    }

    private long runsOfTool(String tool) {
        return owner.sql("SELECT count(*) FROM airlock.runs WHERE tool = ?")
                .param(tool)
                .query(Long.class)
                .single();
    }

    @Test
    void aBodyOverTheLimitIsRefusedBeforeItIsParsedWithOrWithoutADeclaredLength() throws Exception {
        String big = "{\"tool\":\"echo\",\"arguments\":{\"message\":\"" + "x".repeat(70 * 1024) + "\"}}";
        HttpResponse<String> declared = post(RUNS, big);
        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(declared.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).contains("problem+json"));
        assertThat(declared.body()).contains("larger than 65536 bytes");

        // No Content-Length: the body arrives chunked and is cut off at the limit.
        Iterator<byte[]> chunks = Stream.concat(
                        Stream.of("{\"tool\":\"echo\",\"arguments\":{\"message\":\""),
                        Stream.concat(Stream.generate(() -> "y".repeat(8192)).limit(20), Stream.of("\"}}")))
                .map(s -> s.getBytes(StandardCharsets.US_ASCII))
                .iterator();
        HttpResponse<String> chunked = post(
                RUNS, HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofByteArrays(() -> chunks)));
        assertThat(chunked.statusCode()).as(chunked.body()).isEqualTo(413);
        assertThat(chunked.body()).contains("larger than 65536 bytes");

        HttpResponse<String> mcp = post(
                "/mcp",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "z".repeat(70 * 1024)
                        + "\"}}");
        assertThat(mcp.statusCode()).isEqualTo(413);
        assertThat(mcp.body()).contains("\"jsonrpc\":\"2.0\"").contains("larger than 65536 bytes");
    }

    @Autowired
    org.springframework.context.ApplicationContext context;

    @Test
    void aBodyOfAnotherMethodThanPostToTheMcpEndpointIsBoundedAndNoFilterReadsAFormBody() throws Exception {
        for (String method : List.of("PUT", "PATCH", "DELETE")) {
            HttpResponse<String> refused = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp/anything"))
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .method(method, HttpRequest.BodyPublishers.ofString("a=" + "x".repeat(70 * 1024)))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).as(method).isEqualTo(413);
            assertThat(refused.body()).as(method).contains("larger than 65536 bytes");
        }
        // Spring's FormContentFilter reads such a body whole before security, whatever its length.
        assertThat(context.getBeanNamesForType(org.springframework.web.filter.FormContentFilter.class))
                .isEmpty();
    }

    @Test
    void aKeyGivenTwiceIsRefusedAndNothingRuns() throws Exception {
        long before = runsOfTool("echo");
        HttpResponse<String> refused =
                post(RUNS, "{\"tool\":\"nope\",\"tool\":\"echo\",\"arguments\":{\"message\":\"twice\"}}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("the key 'tool' twice").contains("\"field\":\"tool\"");
        HttpResponse<String> inner =
                post(RUNS, "{\"tool\":\"echo\",\"arguments\":{\"message\":\"a\",\"message\":\"b\"}}");
        assertThat(inner.statusCode()).isEqualTo(400);
        assertThat(inner.body()).contains("the key 'message' twice");
        assertThat(runsOfTool("echo")).isEqualTo(before);

        HttpResponse<String> mcp = post(
                "/mcp",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                        + "{\"name\":\"wipe\",\"name\":\"echo\",\"arguments\":{\"message\":\"twice\"}}}");
        assertThat(mcp.statusCode()).isEqualTo(400);
        assertThat(mcp.body()).contains("\"code\":-32700");
        assertThat(runsOfTool("echo")).isEqualTo(before);
    }

    @Test
    void jsonPastItsDepthOrLengthBoundsIsABadRequestNamingTheBounds() throws Exception {
        String deep = "{\"tool\":\"echo\",\"arguments\":{\"message\":" + "[".repeat(40) + "]".repeat(40) + "}}";
        HttpResponse<String> nested = post(RUNS, deep);
        assertThat(nested.statusCode()).isEqualTo(400);
        assertThat(nested.body()).contains("nested too deeply").contains("at most 32 levels");
        HttpResponse<String> number =
                post(RUNS, "{\"tool\":\"count-lines\",\"arguments\":{\"count\":" + "9".repeat(200) + "}}");
        assertThat(number.statusCode()).isEqualTo(400);
        assertThat(number.body()).contains("100 digits");
    }

    @Test
    void theApisReadJsonOnlySoNoOtherReaderSeesABodyTheJsonBoundsWouldRefuse() throws Exception {
        long before = runsOfTool("echo");
        for (String type : List.of(
                "application/yaml",
                "application/x-yaml",
                "text/plain",
                "multipart/form-data; boundary=x",
                "application/x-www-form-urlencoded")) {
            HttpResponse<String> refused = post(
                    RUNS,
                    HttpRequest.BodyPublishers.ofString("tool: nope\ntool: echo\narguments: {message: yaml}\n"),
                    "Content-Type",
                    type);
            assertThat(refused.statusCode()).as(type).isEqualTo(415);
            assertThat(refused.body()).as(type).contains("unsupported-media-type");
        }
        assertThat(runsOfTool("echo")).isEqualTo(before);
    }

    @Test
    void theApisReadJsonInUtf8OnlySoAProxyReadingUtf8ReadsWhatAirlockReads() throws Exception {
        long before = runsOfTool("echo");
        String body = "{\"tool\":\"echo\",\"arguments\":{\"message\":\"utf-16\"}}";
        for (java.nio.charset.Charset charset : List.of(
                StandardCharsets.UTF_16LE,
                StandardCharsets.UTF_16BE,
                StandardCharsets.UTF_16,
                Charset.forName("UTF-32LE"))) {
            HttpResponse<String> refused = post(RUNS, HttpRequest.BodyPublishers.ofByteArray(body.getBytes(charset)));
            assertThat(refused.statusCode()).as(charset.name()).isEqualTo(400);
            assertThat(refused.body()).as(charset.name()).contains("RFC 8259");
        }
        HttpResponse<String> overlong = post(
                RUNS,
                HttpRequest.BodyPublishers.ofByteArray(
                        java.util.HexFormat.of()
                                .parseHex(
                                        "7b22746f6f6c223a226563686f222c22617267756d656e7473223a7b226d657373616765223a22c0af227d7d")));
        assertThat(overlong.statusCode()).as("an overlong '/'").isEqualTo(400);
        for (String type : List.of(
                "application/json; charset=IBM037",
                "application/json; charset=windows-1252",
                "application/json;charset=\"utf-16\"")) {
            HttpResponse<String> refused =
                    post(RUNS, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8), "Content-Type", type);
            assertThat(refused.statusCode()).as(type).isEqualTo(415);
            assertThat(refused.body()).as(type).contains("UTF-8 only");
        }
        HttpResponse<String> mcp = post(
                "/mcp",
                HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}"),
                "Content-Type",
                "application/json; charset=utf-16");
        assertThat(mcp.statusCode()).as("the MCP endpoint too").isEqualTo(415);
        assertThat(mcp.body()).contains("\"jsonrpc\":\"2.0\"", "charset=utf-8");
        // Documents of one to three bytes, which Jackson reads to their end more than once.
        for (String tiny : List.of("{}", "1", "[]")) {
            HttpResponse<String> refused = post(RUNS, tiny);
            assertThat(refused.statusCode()).as(tiny).isEqualTo(400);
        }
        assertThat(runsOfTool("echo")).isEqualTo(before);
        HttpResponse<String> accepted = post(
                RUNS,
                HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8),
                "Content-Type",
                "application/json; charset=\"UTF-8\"");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(201);
    }

    @Test
    void anEncodedPathToTheMcpEndpointIsRefusedBeforeItsHandler() throws Exception {
        HttpResponse<String> refused = post("/%6Dcp", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).contains("application/problem+json"));
        assertThat(refused.body()).contains("percent-encoded").doesNotContain("\"result\"");
    }

    @Test
    void jsonRpcMessagesAreVersionTwoWithProgressTokensAsTheProtocolSays() throws Exception {
        for (String body : List.of(
                "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}",
                "{\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                        + "\"arguments\":{\"message\":\"x\"},\"_meta\":{\"progressToken\":{\"nested\":true}}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                        + "\"arguments\":{\"message\":\"x\"},\"_meta\":{\"progressToken\":1.5}}}")) {
            HttpResponse<String> refused = post("/mcp", body);
            assertThat(refused.statusCode()).as(body).isEqualTo(400);
            assertThat(refused.body()).as(body).contains("\"code\":-32600");
        }
        HttpResponse<String> ping = post("/mcp", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
        assertThat(ping.statusCode()).isEqualTo(200);
        assertThat(ping.body()).contains("\"id\":7");
    }

    /** A raw request from a chosen loopback address; the response's first lines. */
    private String fromAddress(String local, String path, String... headers) throws Exception {
        try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port, InetAddress.getByName(local), 0)) {
            OutputStream out = socket.getOutputStream();
            StringBuilder request =
                    new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
            for (String header : headers) {
                request.append(header).append("\r\n");
            }
            out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            try (InputStream in = socket.getInputStream()) {
                String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                return response.substring(0, response.indexOf("\r\n\r\n"));
            }
        }
    }

    private static String sessionCookie(String head) {
        return head.lines()
                .filter(l -> l.toLowerCase().startsWith("set-cookie: jsessionid="))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void forwardedHeadersAreBelievedOnlyFromTheConfiguredProxy() throws Exception {
        String direct = sessionCookie(
                fromAddress("127.0.0.1", "/login", "X-Forwarded-Proto: https", "X-Forwarded-For: 10.1.2.3"));
        assertThat(direct).as("from an address that is not the proxy").doesNotContainIgnoringCase("secure");
        String proxied = sessionCookie(
                fromAddress("127.0.0.2", "/login", "X-Forwarded-Proto: https", "X-Forwarded-For: 10.1.2.3"));
        assertThat(proxied).as("from the configured proxy").containsIgnoringCase("secure");
    }

    @Test
    void theApiDocumentNamesTheConfiguredAddressWhateverTheRequestSays() throws Exception {
        HttpResponse<String> document = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v3/api-docs"))
                        .header("X-Forwarded-Host", "evil.example.test")
                        .header("X-Forwarded-Proto", "https")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(document.statusCode()).isEqualTo(200);
        assertThat(document.body())
                .contains("\"servers\":[{\"url\":\"https://airlock.example.test\"")
                .doesNotContain("evil");
    }
}
