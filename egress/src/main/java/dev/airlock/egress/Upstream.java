package dev.airlock.egress;

import dev.airlock.egress.guard.AddressGuard;
import dev.airlock.egress.guard.EgressNetwork;
import dev.airlock.egress.guard.GuardedDnsResolver;
import dev.airlock.egress.guard.GuardedSocketFactory;
import dev.airlock.egress.guard.RefusedAddressException;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.HttpHostConnectException;
import org.apache.hc.client5.http.SchemePortResolver;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.HttpClientConnectionOperator;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * One upstream, and the only way Airlock sends it anything. A call passes the bulkhead (waiting at
 * most one attempt's time for a place), then for each attempt the circuit breaker (an open breaker
 * answers at once: nothing is sent), then the time limiter; an idempotent request is retried after
 * a connection failure, a time-out or a 502, 503 or 504, with backoff. Every connection's address
 * is checked by the guard when the name is resolved and again when the socket connects; redirects
 * are followed only within the request's origin, at most five; the body is read through the
 * caller's reader up to the upstream's limit, and the connection is cut at the limit, at the
 * deadline or on cancel. Thread-safe.
 */
public final class Upstream implements AutoCloseable {

    /** The longest header line (and chunk-size line) read from an upstream, in bytes. */
    public static final int MAX_LINE = 8192;

    /** The most header lines read from an upstream's answer. */
    public static final int MAX_HEADERS = 100;

    /** Redirects followed within the origin before the call gives up. */
    static final int MAX_REDIRECTS = 5;

    private final String name;
    private final UpstreamPolicy policy;
    private final CloseableHttpClient client;
    private final CircuitBreaker breaker;
    private final Retry retry;
    private final Bulkhead bulkhead;
    private final TimeLimiter timeLimiter;
    private final ExecutorService attempts;
    private final ScheduledExecutorService timers;
    private final Clock clock;

    Upstream(
            String name,
            UpstreamPolicy policy,
            DnsResolver resolver,
            EgressNetwork network,
            Resilience resilience,
            ExecutorService attempts,
            ScheduledExecutorService timers,
            Clock clock) {
        this.name = name;
        this.policy = policy;
        this.attempts = attempts;
        this.timers = timers;
        this.clock = clock;
        AddressGuard guard = new AddressGuard(policy.allowPrivateNetwork());
        TlsSocketStrategy tls = policy.tls() == null
                ? ClientTlsStrategyBuilder.create().buildClassic()
                : ClientTlsStrategyBuilder.create().setSslContext(policy.tls()).buildClassic();
        GuardedSocketFactory sockets = new GuardedSocketFactory(guard, network);
        Timeout timeout = Timeout.of(policy.timeout());
        PoolingHttpClientConnectionManager connections = new PoolingHttpClientConnectionManagerBuilder() {
            @Override
            protected HttpClientConnectionOperator createConnectionOperator(
                    SchemePortResolver ports, DnsResolver dns, TlsSocketStrategy strategy) {
                return new DefaultHttpClientConnectionOperator(
                        sockets,
                        ports,
                        dns,
                        RegistryBuilder.<TlsSocketStrategy>create()
                                .register(URIScheme.HTTPS.id, strategy)
                                .build());
            }
        }.setDnsResolver(new GuardedDnsResolver(resolver, guard))
                .setTlsSocketStrategy(tls)
                .setMaxConnPerRoute(policy.maxConcurrentCalls())
                .setMaxConnTotal(policy.maxConcurrentCalls())
                // Header lines, their number and chunk-size lines bounded, as the body is: an upstream
                // that never ends a line cannot fill the gateway's memory.
                .setConnectionFactory(org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory.builder()
                        .http1Config(org.apache.hc.core5.http.config.Http1Config.custom()
                                .setMaxLineLength(MAX_LINE)
                                .setMaxHeaderCount(MAX_HEADERS)
                                .build())
                        .build())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(timeout)
                        .setSocketTimeout(timeout)
                        .build())
                .build();
        this.client = HttpClients.custom()
                .setConnectionManager(connections)
                .setProxySelector(null)
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableContentCompression()
                .disableAuthCaching()
                .setUserAgent("Airlock")
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setRedirectsEnabled(false)
                        .setAuthenticationEnabled(false)
                        .setConnectionRequestTimeout(timeout)
                        .setResponseTimeout(timeout)
                        .setContentCompressionEnabled(false)
                        .build())
                .build();
        this.breaker = resilience.breaker(name, policy.breaker());
        this.retry = resilience.retry(name, policy.retry());
        this.bulkhead = resilience.bulkhead(name, policy.maxConcurrentCalls(), policy.timeout());
        this.timeLimiter = resilience.timeLimiter(name, policy.timeout());
    }

    /** The upstream's name, as its metrics carry it. */
    public String name() {
        return name;
    }

    /** The upstream's policy. */
    public UpstreamPolicy policy() {
        return policy;
    }

    /**
     * Sends {@code request} and reads the answer it keeps through {@code reader}.
     *
     * @param deadline the whole call's time limit, retries and backoff included
     */
    public EgressResult call(EgressRequest request, ResponseReader reader, CallControl control, Duration deadline) {
        Call call = new Call(request, reader, clock.instant());
        control.onCancel(call::cancel);
        ScheduledFuture<?> watchdog = timers.schedule(call::expire, deadline.toNanos(), TimeUnit.NANOSECONDS);
        try {
            if (!bulkhead.tryAcquirePermission()) {
                return call.end(
                        EgressTermination.TIMED_OUT,
                        null,
                        "more calls to upstream " + name
                                + " were in flight than max-concurrent-calls allows, for longer than its timeout");
            }
            try {
                return call.run();
            } finally {
                bulkhead.onComplete();
            }
        } finally {
            watchdog.cancel(false);
        }
    }

    @Override
    public void close() throws IOException {
        client.close();
    }

    /** A 5xx answer, which counts as a failure of the upstream. */
    static final class ServerError extends IOException {

        private static final long serialVersionUID = 1L;

        ServerError(int status) {
            super("the upstream answered " + status, null);
        }
    }

    /** What one attempt ended with; {@code retryable} when another attempt may do better. */
    private record Attempt(
            EgressTermination termination,
            @Nullable Integer status,
            Map<String, String> headers,
            @Nullable String reason,
            URI url,
            boolean retryable)
            implements Resilience.Retryable {}

    /** One call in flight: its attempts, its deadline and its cancellation. */
    private final class Call {

        private final EgressRequest request;
        private final ResponseReader reader;
        private final Instant started;
        private final AtomicReference<@Nullable HttpUriRequestBase> inFlight = new AtomicReference<>();
        private volatile boolean cancelled;
        private volatile boolean expired;
        private int attemptsMade;
        private URI lastUrl;
        /** The thread waiting out a retry's backoff, while it does (guarded by {@code this}). */
        private @Nullable Thread backingOff;
        /** Whether {@link #abort} interrupted that wait (guarded by {@code this}): only its own interrupt is cleared. */
        private boolean waitInterrupted;

        Call(EgressRequest request, ResponseReader reader, Instant started) {
            this.request = request;
            this.reader = reader;
            this.started = started;
            this.lastUrl = request.url();
        }

        void cancel() {
            cancelled = true;
            abort();
        }

        void expire() {
            expired = true;
            abort();
        }

        private void abort() {
            HttpUriRequestBase current = inFlight.get();
            if (current != null) {
                current.cancel();
            }
            synchronized (this) {
                // A backoff does not outlast the call's deadline or its cancellation.
                if (backingOff != null) {
                    waitInterrupted = true;
                    backingOff.interrupt();
                }
            }
        }

        /**
         * Whether to try again after {@code attempt}: the retry's decision and its backoff, waited out
         * here unless the call is cancelled or reaches its deadline meanwhile (no interrupt is left behind).
         */
        private boolean retryAfter(Retry.Context<Attempt> retries, Attempt attempt) {
            synchronized (this) {
                if (cancelled || expired) {
                    return false;
                }
                backingOff = Thread.currentThread();
            }
            try {
                return retries.onResult(attempt);
            } catch (RuntimeException interrupted) {
                return false;
            } finally {
                synchronized (this) {
                    backingOff = null;
                    if (waitInterrupted) {
                        waitInterrupted = false;
                        Thread.interrupted();
                    }
                }
            }
        }

        EgressResult run() {
            Retry.Context<Attempt> retries = retry.context();
            Attempt last = null;
            while (true) {
                if (cancelled || expired) {
                    return stopped(last);
                }
                if (!breaker.tryAcquirePermission()) {
                    if (last != null) {
                        return end(last);
                    }
                    return end(
                            EgressTermination.CIRCUIT_OPEN,
                            null,
                            "the circuit breaker of upstream " + name
                                    + " is open after repeated failures; nothing was sent");
                }
                attemptsMade++;
                long begun = System.nanoTime();
                boolean mayRetry =
                        request.idempotent() && attemptsMade < policy.retry().maxAttempts();
                Attempt attempt;
                java.util.concurrent.atomic.AtomicBoolean abandoned = new java.util.concurrent.atomic.AtomicBoolean();
                try {
                    attempt = timeLimiter.executeFutureSupplier(
                            () -> CompletableFuture.supplyAsync(() -> attempt(mayRetry, abandoned), attempts));
                } catch (TimeoutException e) {
                    // Its thread goes on until its request is cut: it must not send a redirect's next request.
                    abandoned.set(true);
                    abort();
                    countFailure(begun, e, cancelled);
                    attempt = new Attempt(
                            EgressTermination.TIMED_OUT,
                            null,
                            Map.of(),
                            "no complete answer within the upstream's timeout of " + policy.timeout(),
                            lastUrl,
                            true);
                } catch (Exception e) {
                    attempt = failed(unwrapped(e), begun);
                }
                if (attempt.termination() == EgressTermination.RESPONDED
                        && attempt.status() != null
                        && attempt.status() >= 500) {
                    breaker.onError(System.nanoTime() - begun, TimeUnit.NANOSECONDS, new ServerError(attempt.status()));
                } else if (attempt.termination() == EgressTermination.RESPONDED
                        || attempt.termination() == EgressTermination.RESPONSE_LIMIT) {
                    breaker.onSuccess(System.nanoTime() - begun, TimeUnit.NANOSECONDS);
                }
                last = attempt;
                if (cancelled || expired) {
                    return stopped(last);
                }
                if (mayRetry && attempt.retryable()) {
                    if (retryAfter(retries, attempt)) {
                        continue;
                    }
                    if (cancelled || expired) {
                        return stopped(last);
                    }
                }
                retries.onComplete();
                return end(attempt);
            }
        }

        private EgressResult stopped(@Nullable Attempt last) {
            if (cancelled) {
                return end(EgressTermination.CANCELLED, last == null ? null : last.status(), "the call was cancelled");
            }
            return end(
                    EgressTermination.TIMED_OUT,
                    last == null ? null : last.status(),
                    "the call did not end within the tool's time limit");
        }

        /**
         * Counts a failed attempt against the breaker, unless its caller cut it ({@code cut}): a cancel is not the
         * upstream's failure, and an agent that starts and cancels calls must not open the breaker for everyone else.
         */
        private void countFailure(long begun, Throwable e, boolean cut) {
            if (cut) {
                breaker.releasePermission();
            } else {
                breaker.onError(System.nanoTime() - begun, TimeUnit.NANOSECONDS, e);
            }
        }

        private Attempt failed(Throwable e, long begun) {
            if (e instanceof RefusedAddressException refused) {
                breaker.releasePermission();
                return new Attempt(EgressTermination.REFUSED, null, Map.of(), refused.reason(), lastUrl, false);
            }
            if (e instanceof RedirectRefused redirect) {
                breaker.onSuccess(System.nanoTime() - begun, TimeUnit.NANOSECONDS);
                return new Attempt(
                        EgressTermination.REFUSED, redirect.status, Map.of(), redirect.getMessage(), lastUrl, false);
            }
            boolean cut = cancelled;
            countFailure(begun, e, cut);
            if (cut) {
                return new Attempt(EgressTermination.CANCELLED, null, Map.of(), null, lastUrl, false);
            }
            if (expired) {
                return new Attempt(EgressTermination.TIMED_OUT, null, Map.of(), null, lastUrl, false);
            }
            if (e instanceof SocketTimeoutException
                    || e instanceof ConnectTimeoutException
                    || e instanceof InterruptedIOException) {
                return new Attempt(
                        EgressTermination.TIMED_OUT,
                        null,
                        Map.of(),
                        "no answer within the upstream's timeout of " + policy.timeout(),
                        lastUrl,
                        true);
            }
            if (e instanceof HttpHostConnectException
                    || e instanceof ConnectException
                    || e instanceof NoRouteToHostException
                    || e instanceof UnknownHostException
                    || e instanceof SSLException) {
                return new Attempt(
                        EgressTermination.CONNECT_FAILED,
                        null,
                        Map.of(),
                        "could not connect to " + lastUrl.getHost() + ": " + describe(e),
                        lastUrl,
                        true);
            }
            return new Attempt(
                    EgressTermination.CONNECT_FAILED,
                    null,
                    Map.of(),
                    "the exchange with " + lastUrl.getHost() + " failed: " + describe(e),
                    lastUrl,
                    true);
        }

        /** One attempt: the request, redirects within the origin, and the body of the answer kept. */
        private Attempt attempt(boolean mayRetry, java.util.concurrent.atomic.AtomicBoolean abandoned) {
            reader.attemptStarted();
            URI url = request.url();
            String method = request.method();
            byte @Nullable [] body =
                    request.body().length == 0 && request.contentType() == null ? null : request.body();
            for (int redirects = 0; ; redirects++) {
                lastUrl = url;
                HttpUriRequestBase outgoing = new HttpUriRequestBase(method, url);
                request.headers().forEach(h -> outgoing.addHeader(h.name(), h.value()));
                if (body != null) {
                    outgoing.setEntity(new ByteArrayEntity(
                            body, request.contentType() == null ? null : ContentType.parse(request.contentType())));
                }
                inFlight.set(outgoing);
                if (cancelled || expired || abandoned.get()) {
                    outgoing.cancel();
                }
                ClassicHttpResponse response;
                try {
                    response = client.executeOpen(null, outgoing, null);
                } catch (IOException e) {
                    outgoing.cancel();
                    throw new java.io.UncheckedIOException(e);
                }
                try {
                    int status = response.getCode();
                    Map<String, String> headers = selected(response);
                    if (followable(status) && response.getFirstHeader("Location") != null) {
                        if ((status == 307 || status == 308) && !request.idempotent()) {
                            // 307 and 308 repeat the request with its body: never for one that may act twice.
                            throw new RedirectRefused(
                                    status,
                                    "the upstream redirected a request that is not idempotent" + " with " + status
                                            + ", which would send it again; it is not followed");
                        }
                        if (status != 307 && status != 308 && !"GET".equals(method) && !"HEAD".equals(method)) {
                            // 301, 302 and 303 turn it into a GET of another URL: what would be answered is not
                            // the request that was approved (a POST "answered" by a login page's 200).
                            throw new RedirectRefused(
                                    status,
                                    "the upstream redirected the " + method + " request with " + status
                                            + ", which would turn it into a GET of another URL; it is not followed");
                        }
                        URI next = redirect(url, response.getFirstHeader("Location"), status, redirects);
                        outgoing.cancel();
                        url = next;
                        continue;
                    }
                    if (mayRetry && (status == 502 || status == 503 || status == 504)) {
                        outgoing.cancel();
                        return new Attempt(EgressTermination.RESPONDED, status, headers, null, url, true);
                    }
                    HttpEntity entity = response.getEntity();
                    if (entity == null || "HEAD".equals(method)) {
                        return new Attempt(EgressTermination.RESPONDED, status, headers, null, url, false);
                    }
                    try {
                        BoundedBody bounded = new BoundedBody(entity.getContent(), policy.maxResponseBytes());
                        reader.read(status, headers.get("content-type"), bounded);
                        IOException ended = bounded.failure();
                        if (ended != null) {
                            // The reader swallowed how the body ended: it ended so all the same.
                            throw ended;
                        }
                        if (!bounded.ended()) {
                            // The reader took what it wanted and stopped (an MCP answer within a stream
                            // that goes on): closing would drain the rest, unbounded and until the time
                            // limit, so the connection is dropped instead of being read to its end.
                            outgoing.cancel();
                        }
                    } catch (ResponseLimitException e) {
                        outgoing.cancel();
                        return new Attempt(
                                EgressTermination.RESPONSE_LIMIT,
                                status,
                                headers,
                                "the body was cut at the upstream's limit of " + policy.maxResponseBytes() + " bytes",
                                url,
                                false);
                    }
                    return new Attempt(EgressTermination.RESPONDED, status, headers, null, url, false);
                } catch (IOException e) {
                    outgoing.cancel();
                    throw new java.io.UncheckedIOException(e);
                } finally {
                    closeQuietly(response);
                }
            }
        }

        /**
         * Whether a response with this status is a redirect this client follows: 301, 302 and 303
         * (a request other than GET or HEAD then goes on as a GET without its body), 307 and 308
         * (repeated as it was, so only for an idempotent request). Any other 3xx is the answer and
         * is never followed, whatever its {@code Location}: no status makes a request be sent again.
         */
        private static boolean followable(int status) {
            return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
        }

        private URI redirect(URI from, Header location, int status, int redirects) throws RedirectRefused {
            URI next;
            String value = location.getValue().strip();
            String encoded = asciiLocation(value);
            if (encoded == null) {
                throw new RedirectRefused(
                        status, "the upstream redirected to a location with a space or a control character");
            }
            try {
                next = from.resolve(new URI(encoded));
            } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                throw new RedirectRefused(status, "the upstream redirected to a location that is not a URL");
            }
            if (!sameOrigin(from, next) || next.getRawUserInfo() != null) {
                throw new RedirectRefused(
                        status,
                        "the upstream redirected to another origin (" + origin(next)
                                + "); redirects are followed only within " + origin(from));
            }
            String below = request.redirectsBelow();
            if (below != null && !within(next, below)) {
                throw new RedirectRefused(
                        status,
                        "the upstream redirected outside its base URL; redirects are followed only below " + below);
            }
            if (redirects >= MAX_REDIRECTS) {
                throw new RedirectRefused(status, "more than " + MAX_REDIRECTS + " redirects");
            }
            return next;
        }

        /**
         * The {@code Location} as the request line will carry it: each character past ASCII percent-encoded, as
         * browsers send them, so that what is sent is what is recorded (java.net.URI would keep them, and the client
         * write each as one byte, or '?'). The client reads a header's bytes one character each, so one up to U+00FF
         * is a byte (of a UTF-8 character, say) and is encoded as that byte; another as its UTF-8 bytes. Null when it
         * holds an ASCII space or control character, which no URL does.
         */
        private static @Nullable String asciiLocation(String value) {
            StringBuilder out = new StringBuilder(value.length());
            for (int i = 0; i < value.length(); ) {
                int c = value.codePointAt(i);
                i += Character.charCount(c);
                if (c <= 0x20 || c == 0x7f || Character.isSurrogate((char) c) && c <= 0xffff) {
                    // An unpaired surrogate would be sent as '?': what is sent would not be what is recorded.
                    return null;
                }
                if (c < 0x80) {
                    out.append((char) c);
                    continue;
                }
                byte[] bytes = c <= 0xff
                        ? new byte[] {(byte) c}
                        : new String(Character.toChars(c)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                for (byte b : bytes) {
                    out.append('%').append(String.format("%02X", b & 0xff));
                }
            }
            return out.toString();
        }

        EgressResult end(Attempt attempt) {
            return new EgressResult(
                    attempt.termination(),
                    attempt.status(),
                    attempt.headers(),
                    attemptsMade,
                    attempt.reason(),
                    attempt.url(),
                    started,
                    clock.instant());
        }

        EgressResult end(EgressTermination termination, @Nullable Integer status, String reason) {
            return new EgressResult(
                    termination, status, Map.of(), attemptsMade, reason, lastUrl, started, clock.instant());
        }
    }

    /** A redirect the call does not follow. */
    static final class RedirectRefused extends IOException {

        private static final long serialVersionUID = 1L;

        final int status;

        RedirectRefused(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    static boolean sameOrigin(URI a, URI b) {
        return a.getScheme() != null
                && a.getScheme().equalsIgnoreCase(b.getScheme() == null ? "" : b.getScheme())
                && a.getHost() != null
                && a.getHost().equalsIgnoreCase(b.getHost() == null ? "" : b.getHost())
                && port(a) == port(b);
    }

    private static int port(URI uri) {
        if (uri.getPort() >= 0) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    /**
     * Whether {@code next}, exactly as it would be sent, is {@code base} or below it: with no dot
     * segment in its path (not even one with path parameters, {@code ..;x}, which servers that drop
     * parameters read as {@code ..}), and no encoded dot, slash, backslash or semicolon that a server
     * could decode into a way out. The path is not normalized first: what is checked is what is sent, and
     * a server or gateway routing on the raw path would read {@code /billing/../v1} as billing's. It is
     * judged a second time as a lenient server may read it ({@link #folded}): escapes that are no UTF-8,
     * a full-width or look-alike dot, slash or backslash, and a '%', '?', '#' or control character left
     * after decoding are each a way out.
     */
    static boolean within(URI next, String base) {
        String rawPath = String.valueOf(next.getRawPath());
        String path = rawPath.toLowerCase(Locale.ROOT);
        if (path.contains("%2e")
                || path.contains("%2f")
                || path.contains("%5c")
                || path.contains("%3b")
                || path.contains("\\")) {
            return false;
        }
        // As a lenient server may read it: its escapes decoded (strictly: an overlong '.' is no UTF-8) and folded
        // (NFKC: a full-width '.' is a '.'); a dot segment, a backslash or a slash more than it has as sent is out.
        // A '%' left after decoding (a double-encoded "%252e" is a '.' to a server that decodes twice), a '?' or
        // '#' (another parse would end the path there) or a control character (one cut at a NUL) is out too.
        String folded = folded(rawPath);
        if (folded == null
                || folded.contains("\\")
                || count(folded, '/') != count(rawPath, '/')
                || folded.codePoints()
                        .anyMatch(c -> SLASH_LOOKALIKES.contains(c)
                                || c == '%'
                                || c == '?'
                                || c == '#'
                                || c < 0x20
                                || c == 0x7f)) {
            return false;
        }
        for (String segment : (rawPath + "/" + folded).split("/", -1)) {
            int parameters = segment.indexOf(';');
            String name = parameters < 0 ? segment : segment.substring(0, parameters);
            if (name.equals(".") || name.equals("..")) {
                return false;
            }
        }
        String url = next.toString();
        String root = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        return url.equals(root) || url.startsWith(root + "/") || url.startsWith(root + "?");
    }

    /** Slashes NFKC leaves as they are, which some servers' best-fit mappings read as '/' or '\\'. */
    private static final java.util.Set<Integer> SLASH_LOOKALIKES =
            java.util.Set.of(0x2044, 0x2215, 0x2216, 0x2571, 0x2572, 0x29F5, 0x29F8, 0x29F9, 0x3033);

    /** An ASCII hex digit's value, or -1 (Character.digit would take other scripts' digits too). */
    private static int hexDigit(char c) {
        return c >= '0' && c <= '9'
                ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    private static long count(String text, char c) {
        return text.chars().filter(x -> x == c).count();
    }

    /** The raw path's escapes decoded as strict UTF-8 and the result NFKC-folded; null when they are no UTF-8. */
    private static @Nullable String folded(String rawPath) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(rawPath.length());
        for (int i = 0; i < rawPath.length(); ) {
            int c = rawPath.codePointAt(i);
            if (c == '%') {
                if (i + 2 >= rawPath.length()) {
                    return null;
                }
                int high = hexDigit(rawPath.charAt(i + 1));
                int low = hexDigit(rawPath.charAt(i + 2));
                if (high < 0 || low < 0) {
                    return null;
                }
                bytes.write(high * 16 + low);
                i += 3;
            } else {
                byte[] own = new String(Character.toChars(c)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                bytes.write(own, 0, own.length);
                i += Character.charCount(c);
            }
        }
        try {
            String decoded = java.nio.charset.StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
            return java.text.Normalizer.normalize(decoded, java.text.Normalizer.Form.NFKC);
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    private static String origin(URI uri) {
        return (uri.getScheme() == null ? "?" : uri.getScheme().toLowerCase(Locale.ROOT)) + "://"
                + (uri.getHost() == null ? "?" : uri.getHost()) + ":" + port(uri);
    }

    private static Map<String, String> selected(ClassicHttpResponse response) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : new String[] {"content-type", "content-length", "mcp-session-id"}) {
            Header header = response.getFirstHeader(name);
            if (header != null) {
                headers.put(name, header.getValue());
            }
        }
        return headers;
    }

    /** Closes an answer whose outcome is decided already: a failure to close changes nothing of it. */
    private static void closeQuietly(ClassicHttpResponse response) {
        try {
            response.close();
        } catch (IOException ignored) {
            // The connection is gone either way.
        }
    }

    private static Throwable unwrapped(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof ExecutionException
                        || cause instanceof java.util.concurrent.CompletionException
                        || cause instanceof java.io.UncheckedIOException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
    }
}
