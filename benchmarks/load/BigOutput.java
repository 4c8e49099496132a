import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the load tenant's "big" tool (1 GiB of output) once and prints the throughput Airlock
 * observed it at, from the envelope's own timestamps and byte count, next to the throughput of
 * the same command with its output thrown away (the baseline, measured here).
 *
 * Usage: java BigOutput.java BASE_URL
 */
public class BigOutput {

    public static void main(String[] args) throws Exception {
        String command = "yes 'airlock load line 0123456789 abcdefghijklmnopqrstuvwxyz' | head -c 1073741824 > /dev/null";
        long t = System.nanoTime();
        new ProcessBuilder("sh", "-c", command).inheritIO().start().waitFor();
        double bareSeconds = (System.nanoTime() - t) / 1e9;

        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(args[0] + "/api/v1/runs?wait=PT60S"))
                .header("Authorization", "Bearer load-agent-key")
                .header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(5))
                .POST(HttpRequest.BodyPublishers.ofString("{\"tool\":\"big\",\"arguments\":{}}"))
                .build();
        String body = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        Instant started = Instant.parse(field(body, "startedAt"));
        Instant ended = Instant.parse(field(body, "endedAt"));
        long observed = Long.parseLong(field(body, "observedBytes"));
        double seconds = Duration.between(started, ended).toNanos() / 1e9;
        System.out.printf("| 1 GiB output | %.0f MB/s through the gateway | %.0f MB/s to /dev/null | %.2f× | state %s, %d bytes observed |%n",
                observed / seconds / 1e6, 1073741824 / bareSeconds / 1e6, (observed / seconds) / (1073741824 / bareSeconds),
                field(body, "state"), observed);
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\"?([^\",}]+)").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return m.group(1);
    }
}
