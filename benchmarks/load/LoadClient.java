import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load client for gateway-load.sh. Measures, in one process: a bare ProcessBuilder spawn loop
 * (the baseline) and the gateway running a trivial tool, both with the same concurrency, then
 * one run with a large output. Only talks to the gateway on localhost.
 *
 * Usage: java LoadClient.java BASE_URL AGENTS RUNS_PER_AGENT
 */
public class LoadClient {

    public static void main(String[] args) throws Exception {
        String base = args[0];
        int agents = Integer.parseInt(args[1]);
        int perAgent = Integer.parseInt(args[2]);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        // Warm-up: both paths, so that neither measurement pays for JIT compilation.
        measure("warm-up spawn", agents, perAgent / 4 + 1, LoadClient::spawnTrue);
        measure("warm-up gateway", agents, perAgent / 4 + 1, () -> runTrue(http, base));

        Result spawn = measure("bare spawn", agents, perAgent, LoadClient::spawnTrue);
        Result gateway = measure("gateway", agents, perAgent, () -> runTrue(http, base));

        System.out.println();
        System.out.printf("| %d concurrent agents, %d runs each | runs/s | p50 ms | p99 ms |%n", agents, perAgent);
        System.out.println("|---|---:|---:|---:|");
        System.out.println(spawn.row("bare ProcessBuilder spawn of `true`"));
        System.out.println(gateway.row("gateway run of tool `true` (?wait)"));
        System.out.printf("| gateway / bare | %.2f× | +%.2f ms | +%.2f ms |%n",
                gateway.perSecond / spawn.perSecond, gateway.p50 - spawn.p50, gateway.p99 - spawn.p99);
    }

    record Result(double perSecond, double p50, double p99) {
        String row(String name) {
            return String.format("| %s | %.0f | %.2f | %.2f |", name, perSecond, p50, p99);
        }
    }

    interface Call {
        void run() throws Exception;
    }

    static Result measure(String name, int agents, int perAgent, Call call) throws Exception {
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> futures = new ArrayList<>();
            for (int a = 0; a < agents; a++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perAgent; i++) {
                        long t = System.nanoTime();
                        call.run();
                        latencies.add(System.nanoTime() - t);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        Result r = new Result(sorted.size() / seconds, sorted.get(sorted.size() / 2) / 1e6,
                sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.99) - 1)) / 1e6);
        System.err.printf("%s: %d calls in %.1f s%n", name, sorted.size(), seconds);
        return r;
    }

    static void spawnTrue() throws Exception {
        Process p = new ProcessBuilder("true").redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        p.getInputStream().readAllBytes();
        p.getErrorStream().readAllBytes();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("true failed");
        }
    }

    static final Pattern STATE = Pattern.compile("\"state\":\"([A-Z_]+)\"");

    static void runTrue(HttpClient http, String base) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/runs?wait=PT30S"))
                .header("Authorization", "Bearer load-agent-key")
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString("{\"tool\":\"true\",\"arguments\":{}}"))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        Matcher m = STATE.matcher(response.body());
        if (response.statusCode() != 201 || !m.find() || !m.group(1).equals("COMPLETED")) {
            throw new IllegalStateException("unexpected response " + response.statusCode() + ": " + response.body());
        }
    }
}
