import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The HTTP-tool benchmark of http-tool-load.sh, in two parts.
 *
 * <pre>
 * java HttpToolLoad.java serve PORT          # the upstream: answers GET /v1/ping with a small JSON body, until killed
 * java HttpToolLoad.java measure GATEWAY UPSTREAM AGENTS CALLS_PER_AGENT
 * </pre>
 *
 * {@code measure} runs, in one process and with the same concurrency and client: direct calls to
 * the upstream (the baseline), then the gateway's HTTP tool {@code ping} calling the same upstream
 * ({@code POST /api/v1/runs?wait=PT30S}), each after a warm-up of a quarter as many calls; it
 * prints calls per second and the p50/p99 latency of each, the ratio of the rates and the p50 the
 * gateway adds. Talks only to 127.0.0.1.
 */
public class HttpToolLoad {

    static final String KEY = "load-agent-key";

    public static void main(String[] args) throws Exception {
        if (args[0].equals("serve")) {
            serve(Integer.parseInt(args[1]));
            return;
        }
        String gateway = args[1];
        String upstream = args[2];
        int agents = Integer.parseInt(args[3]);
        int calls = Integer.parseInt(args[4]);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest direct = HttpRequest.newBuilder(URI.create(upstream + "/v1/ping")).GET().build();
        HttpRequest viaGateway = HttpRequest.newBuilder(URI.create(gateway + "/api/v1/runs?wait=PT30S"))
                .header("Authorization", "Bearer " + KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"tool\":\"ping\",\"arguments\":{}}"))
                .build();
        measure(http, direct, agents, Math.max(1, calls / 4), null);
        Result base = measure(http, direct, agents, calls, null);
        measure(http, viaGateway, agents, Math.max(1, calls / 4), "\"state\":\"COMPLETED\"");
        Result tool = measure(http, viaGateway, agents, calls, "\"state\":\"COMPLETED\"");
        System.out.printf("%d agents x %d calls each%n%n", agents, calls);
        System.out.println("| path | calls/s | p50 ms | p99 ms |");
        System.out.println("|---|---:|---:|---:|");
        System.out.printf("| direct GET to the upstream | %.0f | %.2f | %.2f |%n", base.rate, base.p50, base.p99);
        System.out.printf("| HTTP tool through the gateway | %.0f | %.2f | %.2f |%n", tool.rate, tool.p50, tool.p99);
        System.out.printf("%nratio gateway / direct: %.2f× the rate; p50 added by the gateway: %+.2f ms%n",
                tool.rate / base.rate, tool.p50 - base.p50);
        System.out.printf("RESULT %.0f %.2f %.2f %.2f%n", tool.rate, tool.p50 - base.p50, base.rate, tool.rate / base.rate);
    }

    record Result(double rate, double p50, double p99) {}

    static Result measure(HttpClient http, HttpRequest request, int agents, int calls, String expect) throws Exception {
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        ExecutorService threads = Executors.newFixedThreadPool(agents);
        long start = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int a = 0; a < agents; a++) {
            done.add(threads.submit(() -> {
                for (int i = 0; i < calls; i++) {
                    long t = System.nanoTime();
                    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                    latencies.add(System.nanoTime() - t);
                    if (response.statusCode() / 100 != 2 || expect != null && !response.body().contains(expect)) {
                        throw new IllegalStateException("unexpected answer " + response.statusCode() + ": " + response.body());
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        threads.shutdown();
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        return new Result(sorted.size() / seconds, sorted.get(sorted.size() / 2) / 1e6,
                sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * 0.99))) / 1e6);
    }

    static void serve(int port) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        byte[] body = "{\"pong\":true,\"service\":\"load\"}".getBytes(StandardCharsets.UTF_8);
        server.createContext("/v1/ping", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        System.out.println("upstream listening on 127.0.0.1:" + port);
        Thread.sleep(Duration.ofDays(1));
    }
}
