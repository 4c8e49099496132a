package dev.airlock.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The guarded client against a real HTTP server on 127.0.0.1, with names resolved by the test and
 * every connection checked to stay on loopback.
 */
class UpstreamTests {

    private final TestNetwork network = new TestNetwork();
    private HttpServer server;
    private Egress egress;
    private final AtomicInteger hits = new AtomicInteger();
    /** The raw paths /caf… was asked for. */
    private final List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/ok", ex -> answer(ex, 200, "text/plain", "hello"));
        server.createContext("/unavailable", ex -> answer(ex, 503, "text/plain", "down"));
        server.createContext("/big", ex -> answer(ex, 200, "text/plain", "x".repeat(5000)));
        server.createContext("/exact", ex -> answer(ex, 200, "text/plain", "x".repeat(100)));
        server.createContext("/slow", ex -> {
            sleep(3000);
            answer(ex, 200, "text/plain", "late");
        });
        server.createContext("/endless", ex -> {
            hits.incrementAndGet();
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = ex.getResponseBody()) {
                byte[] chunk = new byte[1024];
                while (true) {
                    out.write(chunk);
                    out.flush();
                }
            } catch (IOException cut) {
                // the client cut the connection
            }
        });
        server.createContext("/to-other", ex -> redirect(ex, "http://other.example/"));
        server.createContext("/to-same", ex -> redirect(ex, "/ok"));
        server.createContext("/loop", ex -> redirect(ex, "/loop"));
        server.createContext("/to-unicode", ex -> redirect(ex, "/caf\u00e9"));
        server.createContext("/to-spaced", ex -> redirect(ex, "/ok two"));
        // "/caf€" as UTF-8: E2 82 AC, one character each as the JDK's server writes and the client reads them
        server.createContext("/to-euro", ex -> redirect(ex, "/caf\u00e2\u0082\u00ac"));
        server.createContext("/caf", ex -> {
            received.add(ex.getRequestURI().getRawPath());
            answer(ex, 200, "text/plain", "found");
        });
        // /odd/<status>: answers that status with a Location back to itself, counting the requests
        server.createContext("/odd/", ex -> {
            hits.incrementAndGet();
            ex.getRequestBody().transferTo(OutputStream.nullOutputStream());
            ex.getResponseHeaders().set("Location", ex.getRequestURI().getPath());
            ex.sendResponseHeaders(Integer.parseInt(ex.getRequestURI().getPath().substring(5)), -1);
            ex.close();
        });
        // /moved/<status>: answers that status with a Location of /ok, counting the requests
        server.createContext("/moved/", ex -> {
            hits.incrementAndGet();
            ex.getRequestBody().transferTo(OutputStream.nullOutputStream());
            ex.getResponseHeaders().set("Location", "/ok");
            ex.sendResponseHeaders(Integer.parseInt(ex.getRequestURI().getPath().substring(7)), -1);
            ex.close();
        });
        // /cut-then-empty: the first request gets 10 of its 100 bytes and a closed connection, the next a 204
        server.createContext("/cut-then-empty", ex -> {
            if (hits.incrementAndGet() == 1) {
                ex.sendResponseHeaders(200, 100);
                ex.getResponseBody().write("0123456789".getBytes(StandardCharsets.UTF_8));
                ex.getResponseBody().flush();
                // Thrown from the handler, the server closes the connection with the body unfinished.
                throw new IOException("the connection is cut");
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        // /held: answers after a second, the time a test needs to cancel its call
        server.createContext("/held", ex -> {
            hits.incrementAndGet();
            sleep(1000);
            answer(ex, 200, "text/plain", "late");
        });
        server.start();
        egress = new Egress(network, network, null, Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        egress.close();
        server.stop(0);
        assertThat(network.violations).as("connections outside loopback").isEmpty();
    }

    private void answer(HttpExchange ex, int status, String type, String body) throws IOException {
        hits.incrementAndGet();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private void redirect(HttpExchange ex, String location) throws IOException {
        hits.incrementAndGet();
        ex.getResponseHeaders().set("Location", location);
        ex.sendResponseHeaders(302, -1);
        ex.close();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static UpstreamPolicy policy(
            boolean allowPrivate, Duration timeout, long maxBytes, int attempts, int breakerCalls) {
        return new UpstreamPolicy(
                allowPrivate,
                null,
                timeout,
                maxBytes,
                new UpstreamPolicy.Breaker(
                        50, Duration.ofSeconds(60), 100, breakerCalls, breakerCalls, Duration.ofMillis(500)),
                new UpstreamPolicy.RetryPolicy(attempts, Duration.ofMillis(10)),
                4);
    }

    private Upstream local(String name) {
        return egress.upstream(name, policy(true, Duration.ofSeconds(2), 1000, 3, 4));
    }

    /** A GET of {@code path} through the upstream {@code name} with the default test policy, its body read by {@code body}. */
    private EgressResult getThrough(String name, String path, ResponseReader body) {
        return local(name).call(get(url(path)), body, CallControl.NONE, Duration.ofSeconds(5));
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    private static EgressRequest get(URI url) {
        return new EgressRequest("GET", url, List.of(), new byte[0], null, true);
    }

    private static final class Body implements ResponseReader {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int attempts;

        @Override
        public void read(int status, String contentType, InputStream body) throws IOException {
            body.transferTo(bytes);
        }

        @Override
        public void attemptStarted() {
            attempts++;
            bytes.reset();
        }

        String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsTheAnswerAndItsFacts() {
        Body body = new Body();
        EgressResult result = getThrough("ok", "/ok", body);
        assertThat(result.termination()).isEqualTo(EgressTermination.RESPONDED);
        assertThat(result.status()).isEqualTo(200);
        assertThat(result.headers()).containsEntry("content-type", "text/plain").containsEntry("content-length", "5");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(body.text()).isEqualTo("hello");
        assertThat(network.connections).isNotEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {"169.254.169.254", "10.0.0.1", "fd00::1", "::ffff:10.0.0.1", "fd00:ec2::254", "127.0.0.1", "::1"
            })
    void refusesANameThatResolvesToANonPublicAddressWithoutConnecting(String address) {
        network.name("api.example", address);
        Upstream upstream = egress.upstream("public-" + address, policy(false, Duration.ofSeconds(2), 1000, 3, 10));
        EgressResult result = upstream.call(
                get(URI.create("http://api.example:" + server.getAddress().getPort() + "/ok")),
                new Body(),
                CallControl.NONE,
                Duration.ofSeconds(5));
        assertThat(result.termination()).isEqualTo(EgressTermination.REFUSED);
        assertThat(result.reason()).contains("api.example").contains("does not allow private networks");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(network.connections).as("nothing was connected").isEmpty();
        assertThat(hits).hasValue(0);
    }

    @Test
    void refusesALiteralLoopbackAddressWithoutPrivateNetworks() {
        Upstream upstream = egress.upstream("public", policy(false, Duration.ofSeconds(2), 1000, 3, 10));
        EgressResult result = upstream.call(get(url("/ok")), new Body(), CallControl.NONE, Duration.ofSeconds(5));
        assertThat(result.termination()).isEqualTo(EgressTermination.REFUSED);
        assertThat(network.connections).isEmpty();
        assertThat(hits).hasValue(0);
    }

    @Test
    void refusesANameWithOnePublicAndOnePrivateAddress() {
        network.name("mixed.example", "93.184.216.34", "10.0.0.1");
        Upstream upstream = egress.upstream("mixed", policy(false, Duration.ofSeconds(2), 1000, 1, 10));
        EgressResult result = upstream.call(
                get(URI.create("http://mixed.example/ok")), new Body(), CallControl.NONE, Duration.ofSeconds(5));
        assertThat(result.termination()).isEqualTo(EgressTermination.REFUSED);
        assertThat(network.connections).isEmpty();
    }

    @Test
    void followsARedirectWithinTheOriginAndRefusesOneToAnother() {
        Body body = new Body();
        EgressResult same = getThrough("redirects", "/to-same", body);
        assertThat(same.termination()).isEqualTo(EgressTermination.RESPONDED);
        assertThat(same.finalUrl().getPath()).isEqualTo("/ok");
        assertThat(body.text()).isEqualTo("hello");

        network.name("other.example", "127.0.0.1");
        EgressResult other = getThrough("redirects", "/to-other", new Body());
        assertThat(other.termination()).isEqualTo(EgressTermination.REFUSED);
        assertThat(other.reason()).contains("another origin").contains("other.example");
        assertThat(other.status()).isEqualTo(302);

        EgressResult loop = getThrough("redirects", "/loop", new Body());
        assertThat(loop.termination()).isEqualTo(EgressTermination.REFUSED);
        assertThat(loop.reason()).contains("more than 5 redirects");
    }

    @Test
    void aRedirectToALocationPastAsciiIsSentPercentEncodedAsRecorded() {
        // Written as one byte each (or as '?'), what would be sent is not the URL the audit records.
        EgressResult result = getThrough("redirects", "/to-unicode", new Body());
        assertThat(result.termination()).isEqualTo(EgressTermination.RESPONDED);
        assertThat(result.finalUrl().getRawPath()).isEqualTo("/caf%E9");
        assertThat(received).as("the request line the upstream received").contains("/caf%E9");
    }

    @Test
    void aRedirectToAUtf8LocationIsSentAsItsUtf8BytesPercentEncoded() {
        EgressResult result = getThrough("redirects", "/to-euro", new Body());
        assertThat(result.termination()).isEqualTo(EgressTermination.RESPONDED);
        assertThat(result.finalUrl().getRawPath()).isEqualTo("/caf%E2%82%AC");
        assertThat(received).contains("/caf%E2%82%AC");
    }

    @Test
    void aRedirectToALocationWithWhiteSpaceIsRefused() {
        EgressResult result = getThrough("redirects", "/to-spaced", new Body());
        assertThat(result.termination()).isEqualTo(EgressTermination.REFUSED);
        assertThat(result.reason()).contains("a space or a control character");
        assertThat(hits).as("requests the upstream received").hasValue(1);
    }

    @ParameterizedTest(name = "{0} answered {1}")
    @org.junit.jupiter.params.provider.CsvSource({
        "POST, 301",
        "POST, 302",
        "POST, 303",
        "PUT, 302",
        "DELETE, 301",
        "PATCH, 303"
    })
    void aRedirectThatWouldTurnTheRequestIntoAGetIsRefusedNotFollowed(String method, int status) {
        // A POST "answered" by the 200 of the page it was sent on to (a login page, say) did not succeed.
        EgressRequest request = new EgressRequest(
                method,
                url("/moved/" + status),
                List.of(),
                "{\"deploy\":1}".getBytes(StandardCharsets.UTF_8),
                "application/json",
                !method.equals("POST") && !method.equals("PATCH"));
        EgressResult result = local("moved").call(request, new Body(), CallControl.NONE, Duration.ofSeconds(5));
        assertThat(result.termination()).isEqualTo(EgressTermination.REFUSED);
        assertThat(result.status()).isEqualTo(status);
        assertThat(result.reason()).contains(method + " request with " + status, "GET", "not followed");
        assertThat(hits).as("requests the upstream received").hasValue(1);
    }

    @Test
    void aGetIsStillFollowedThroughA303() {
        Body body = new Body();
        EgressResult result = getThrough("moved", "/moved/303", body);
        assertThat(result.termination()).isEqualTo(EgressTermination.RESPONDED);
        assertThat(result.finalUrl().getPath()).isEqualTo("/ok");
        assertThat(body.text()).isEqualTo("hello");
    }

    @Test
    void aRetrysAnswerWithoutABodyIsNotGivenTheBodyOfTheAttemptBefore() {
        Body body = new Body();
        EgressResult result = getThrough("cut", "/cut-then-empty", body);
        assertThat(result.termination()).isEqualTo(EgressTermination.RESPONDED);
        assertThat(result.status()).isEqualTo(204);
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(body.attempts).as("each attempt began afresh").isEqualTo(2);
        assertThat(body.text())
                .as("the first attempt's ten bytes are not the answer's")
                .isEmpty();
    }

    @Test
    void callsCancelledByTheirCallerDoNotOpenTheBreaker() throws Exception {
        // Two calls in the window, both cut by their caller: the upstream failed neither. Opened, the breaker would
        // stay open for ten minutes, far longer than this test takes.
        Upstream upstream = egress.upstream(
                "cancelled",
                new UpstreamPolicy(
                        true,
                        null,
                        Duration.ofSeconds(5),
                        1000,
                        new UpstreamPolicy.Breaker(50, Duration.ofSeconds(60), 100, 2, 2, Duration.ofMinutes(10)),
                        new UpstreamPolicy.RetryPolicy(1, Duration.ofMillis(10)),
                        4));
        for (int i = 1; i <= 2; i++) {
            AtomicReference<Runnable> cancel = new AtomicReference<>();
            CompletableFuture<EgressResult> call = CompletableFuture.supplyAsync(
                    () -> upstream.call(get(url("/held")), new Body(), cancel::set, Duration.ofSeconds(30)));
            int sent = i;
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> hits.get() == sent);
            cancel.get().run();
            assertThat(call.get(30, java.util.concurrent.TimeUnit.SECONDS).termination())
                    .isEqualTo(EgressTermination.CANCELLED);
        }
        EgressResult next = upstream.call(get(url("/ok")), new Body(), CallControl.NONE, Duration.ofSeconds(5));
        assertThat(next.termination()).isEqualTo(EgressTermination.RESPONDED);
    }

    @ParameterizedTest
    @ValueSource(ints = {300, 304, 305, 306, 399})
    void aThreeHundredThatIsNoRedirectIsTheAnswerAndSendsNothingAgain(int status) {
        EgressRequest post = new EgressRequest(
                "POST",
                url("/odd/" + status),
                List.of(),
                "{\"deploy\":1}".getBytes(StandardCharsets.UTF_8),
                "application/json",
                false);
        EgressResult result = local("odd").call(post, new Body(), CallControl.NONE, Duration.ofSeconds(5));
        assertThat(result.termination()).isEqualTo(EgressTermination.RESPONDED);
        assertThat(result.status()).isEqualTo(status);
        assertThat(hits).as("requests the upstream received").hasValue(1);
    }

    @Test
    void cutsABodyAtTheLimitAndKeepsNothingPastIt() {
        Body body = new Body();
        EgressResult result = getThrough("limit", "/big", body);
        assertThat(result.termination()).isEqualTo(EgressTermination.RESPONSE_LIMIT);
        assertThat(body.bytes.size()).isEqualTo(1000);
        Body exact = new Body();
        assertThat(getThrough("limit", "/exact", exact).termination())
                .as("a body of exactly the limit is whole")
                .isEqualTo(EgressTermination.RESPONDED);
    }

    @Test
    void cutsANeverEndingBody() {
        Body body = new Body();
        EgressResult result = getThrough("endless", "/endless", body);
        assertThat(result.termination()).isEqualTo(EgressTermination.RESPONSE_LIMIT);
        assertThat(body.bytes.size()).isEqualTo(1000);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @org.junit.jupiter.params.provider.CsvSource({
        "https://h/v1, true",
        "https://h/v1/x, true",
        "https://h/v1?page=2, true",
        "https://h/v1/a;jsessionid=1, true",
        "https://h/v10, false",
        "https://h/billing, false",
        "https://h/billing/../v1/x, false",
        "https://h/v1/../billing, false",
        "https://h/v1/./x, false",
        "https://h/v1/..;x/billing, false",
        "https://h/v1/.;x, false",
        "https://h/v1/%2e%2e/billing, false",
        "https://h/v1/..%3bx/billing, false",
        "https://h/v1/%2fbilling, false",
        "https://h/v1/%5c..%5cbilling, false",
        "https://h/v1/%C0%AE%C0%AE/billing, false",
        "https://h/v1/%E0%80%AE/billing, false",
        "https://h/v1/%EF%BC%8E%EF%BC%8E/billing, false",
        "https://h/v1/a%EF%BC%8Fb, false",
        "https://h/v1/a%EF%BC%BCb, false",
        "https://h/v1/a%E2%88%95b, false",
        "https://h/v1/a%E2%81%84b, false",
        "https://h/v1/%FF, false",
        "https://h/v1/caf%E9, false",
        "https://h/v1/%252e%252e/billing, false",
        "https://h/v1/%EF%BC%852e%EF%BC%852e/billing, false",
        "https://h/v1/..%EF%BC%9F/billing, false",
        "https://h/v1/..%EF%BC%83x/billing, false",
        "https://h/v1/..%00/billing, false",
        "https://h/v1/%F0%9F%98%80, true",
        "https://h/v1/caf%C3%A9, true",
        "https://h/v1/%E2%82%AC/x, true"
    })
    void aRedirectIsWithinTheBaseUrlOnlyAsItIsSent(String next, boolean within) {
        assertThat(Upstream.within(URI.create(next), "https://h/v1")).isEqualTo(within);
    }

    @Test
    void aReaderThatStopsEarlyEndsTheCallAtOnceWithItsAnswer() {
        // An MCP server answers within an event stream and goes on streaming: what follows the
        // answer is neither waited for nor read, whatever the limit.
        ResponseReader firstBytes = (status, contentType, body) -> body.readNBytes(10);
        Upstream upstream = egress.upstream("stream", policy(true, Duration.ofSeconds(3), 1_000_000_000L, 1, 4));
        EgressResult result = upstream.call(get(url("/endless")), firstBytes, CallControl.NONE, Duration.ofSeconds(3));
        assertThat(result.termination())
                .as("the rest of the stream is dropped, not drained until the time limit")
                .isEqualTo(EgressTermination.RESPONDED);
        assertThat(result.status()).isEqualTo(200);
    }

    @Test
    void endsASlowCallAtTheTimeLimit() {
        Upstream upstream = egress.upstream("slow", policy(true, Duration.ofMillis(300), 1000, 1, 10));
        EgressResult result = upstream.call(get(url("/slow")), new Body(), CallControl.NONE, Duration.ofSeconds(5));
        assertThat(result.termination()).isEqualTo(EgressTermination.TIMED_OUT);
        assertThat(result.status()).isNull();
    }

    @Test
    void endsACallAtItsOwnDeadlineAcrossRetries() {
        Upstream upstream = egress.upstream("deadline", policy(true, Duration.ofSeconds(2), 1000, 5, 10));
        EgressResult result = upstream.call(get(url("/slow")), new Body(), CallControl.NONE, Duration.ofMillis(400));
        assertThat(result.termination()).isEqualTo(EgressTermination.TIMED_OUT);
        assertThat(result.reason()).contains("time limit");
    }

    /** Three attempts of a GET, ten minutes' backoff before the second. */
    private static UpstreamPolicy patient() {
        return new UpstreamPolicy(
                true,
                null,
                Duration.ofSeconds(2),
                1000,
                new UpstreamPolicy.Breaker(50, Duration.ofSeconds(60), 100, 10, 10, Duration.ofMillis(500)),
                new UpstreamPolicy.RetryPolicy(3, Duration.ofMinutes(10)),
                4);
    }

    @Test
    void theWaitBeforeARetryEndsAtTheCallsDeadlineAndWhenTheCallIsCancelled() throws Exception {
        // A backoff of ten minutes: the call ends at its own deadline, or at its cancellation, not after it.
        Upstream upstream = egress.upstream("patient", patient());
        EgressResult expired = CompletableFuture.supplyAsync(() ->
                        upstream.call(get(url("/unavailable")), new Body(), CallControl.NONE, Duration.ofMillis(500)))
                .get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(expired.termination()).isEqualTo(EgressTermination.TIMED_OUT);
        assertThat(expired.reason()).contains("time limit");
        assertThat(expired.attempts()).isEqualTo(1);

        hits.set(0);
        AtomicReference<Runnable> cancel = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean leftInterrupted = new java.util.concurrent.atomic.AtomicBoolean(true);
        CompletableFuture<EgressResult> cancelled = CompletableFuture.supplyAsync(() -> {
            EgressResult result =
                    upstream.call(get(url("/unavailable")), new Body(), cancel::set, Duration.ofMinutes(30));
            leftInterrupted.set(Thread.currentThread().isInterrupted());
            return result;
        });
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> hits.get() == 1);
        cancel.get().run();
        EgressResult ended = cancelled.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(ended.termination()).isEqualTo(EgressTermination.CANCELLED);
        assertThat(ended.attempts()).isEqualTo(1);
        assertThat(leftInterrupted)
                .as("the caller's thread is not left interrupted")
                .isFalse();
    }

    @Test
    void anInterruptFromElsewhereDuringABackoffIsKeptForItsCaller() throws Exception {
        Upstream upstream = egress.upstream("interrupted", patient());
        AtomicReference<Thread> caller = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean keptInterrupt = new java.util.concurrent.atomic.AtomicBoolean();
        CompletableFuture<EgressResult> call = CompletableFuture.supplyAsync(() -> {
            caller.set(Thread.currentThread());
            EgressResult result =
                    upstream.call(get(url("/unavailable")), new Body(), CallControl.NONE, Duration.ofMinutes(30));
            keptInterrupt.set(Thread.interrupted());
            return result;
        });
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> hits.get() == 1);
        Thread.sleep(1000); // the answer read, the ten minutes' backoff begun
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> caller.get().getState() == Thread.State.TIMED_WAITING);
        caller.get().interrupt();
        EgressResult ended = call.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(ended.attempts()).isEqualTo(1);
        assertThat(keptInterrupt)
                .as("the interrupt that was not the call's own is the caller's to see")
                .isTrue();
    }

    @Test
    void retriesOnlyIdempotentRequests() {
        EgressResult get = getThrough("retries", "/unavailable", new Body());
        assertThat(get.status()).isEqualTo(503);
        assertThat(get.attempts()).isEqualTo(3);
        assertThat(hits).hasValue(3);

        hits.set(0);
        EgressRequest post = new EgressRequest(
                "POST",
                url("/unavailable"),
                List.of(),
                "{}".getBytes(StandardCharsets.UTF_8),
                "application/json",
                false);
        Body body = new Body();
        EgressResult once = egress.upstream("retries-post", policy(true, Duration.ofSeconds(2), 1000, 3, 10))
                .call(post, body, CallControl.NONE, Duration.ofSeconds(5));
        assertThat(once.termination()).isEqualTo(EgressTermination.RESPONDED);
        assertThat(once.status()).isEqualTo(503);
        assertThat(once.attempts()).isEqualTo(1);
        assertThat(hits).hasValue(1);
        assertThat(body.text()).isEqualTo("down");
    }

    @Test
    void aDeadUpstreamOpensTheBreakerWhichClosesAfterItsWait() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        URI dead = URI.create("http://127.0.0.1:" + port + "/ok");
        Upstream upstream = egress.upstream("dead", policy(true, Duration.ofSeconds(1), 1000, 1, 4));
        for (int i = 0; i < 4; i++) {
            EgressResult result = upstream.call(get(dead), new Body(), CallControl.NONE, Duration.ofSeconds(5));
            assertThat(result.termination()).isEqualTo(EgressTermination.CONNECT_FAILED);
        }
        int before = network.connections.size();
        EgressResult open = upstream.call(get(dead), new Body(), CallControl.NONE, Duration.ofSeconds(5));
        assertThat(open.termination()).isEqualTo(EgressTermination.CIRCUIT_OPEN);
        assertThat(open.attempts()).isZero();
        assertThat(network.connections).as("nothing sent while open").hasSize(before);

        // After the wait, calls go through again: to a live server, they close the breaker.
        Thread.sleep(600);
        try (ServerSocket again = new ServerSocket(port, 50, java.net.InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> serve = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 3; i++) {
                    try (var socket = again.accept()) {
                        socket.getInputStream().read(new byte[4096]);
                        socket.getOutputStream()
                                .write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                                        .getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            for (int i = 0; i < 3; i++) {
                assertThat(upstream.call(get(dead), new Body(), CallControl.NONE, Duration.ofSeconds(5))
                                .termination())
                        .isEqualTo(EgressTermination.RESPONDED);
            }
            serve.get(5, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void aCancelCutsASlowCall() throws Exception {
        AtomicReference<Runnable> abort = new AtomicReference<>();
        CompletableFuture<EgressResult> call = CompletableFuture.supplyAsync(
                () -> local("cancel").call(get(url("/slow")), new Body(), abort::set, Duration.ofSeconds(10)));
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(2))
                .until(() -> hits.get() == 0 && abort.get() != null);
        Thread.sleep(200);
        abort.get().run();
        EgressResult result = call.get(3, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(result.termination()).isEqualTo(EgressTermination.CANCELLED);
    }
}
