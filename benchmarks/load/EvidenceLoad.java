import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Client of evidence-load.sh; talks only to the gateway on localhost.
 *
 * <pre>
 * java EvidenceLoad.java keygen DIR                        # DIR/evidence.pem (PKCS#8), prints the Base64 X.509 public key
 * java EvidenceLoad.java runs BASE_URL KEY TOOL COUNT THREADS   # COUNT runs of TOOL, each waited for; prints runs/s
 * java EvidenceLoad.java export BASE_URL USER PASSWORD TENANT FILE KEYS_FILE
 *                                                          # signs in, exports the tenant's last day as FILE, its keys as KEYS_FILE
 * </pre>
 */
public class EvidenceLoad {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "keygen" -> keygen(Path.of(args[1]));
            case "runs" -> runs(args[1], args[2], args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]));
            case "export" -> export(args[1], args[2], args[3], args[4], Path.of(args[5]), Path.of(args[6]));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static void keygen(Path dir) throws Exception {
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        Files.writeString(dir.resolve("evidence.pem"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(pair.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n");
        System.out.println(Base64.getEncoder().encodeToString(pair.getPublic().getEncoded()));
    }

    private static void runs(String base, String key, String tool, int count, int threads) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                pool.submit(() -> {
                    for (int i; (i = next.getAndIncrement()) < count; ) {
                        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/runs?wait=PT60S"))
                                .header("Authorization", "Bearer " + key)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"tool\":\"" + tool + "\",\"arguments\":{}}"))
                                .build();
                        try {
                            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                            if (response.statusCode() != 201 || !response.body().contains("\"COMPLETED\"")) {
                                failed.incrementAndGet();
                            }
                        } catch (Exception e) {
                            failed.incrementAndGet();
                        }
                        if (i > 0 && i % 1000 == 0) {
                            System.err.printf("  %,d runs requested%n", i);
                        }
                    }
                    return null;
                });
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("| runs made | %,d in %.1f s (%.0f runs/s), %d not completed |%n", count, seconds, count / seconds,
                failed.get());
    }

    private static void export(String base, String user, String password, String tenant, Path file, Path keys)
            throws Exception {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .cookieHandler(new CookieManager())
                .build();
        String token = csrf(http.send(HttpRequest.newBuilder(URI.create(base + "/login")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(base + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=" + user + "&password=" + password + "&_csrf=" + token))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (login.statusCode() != 302 || !login.headers().firstValue("Location").orElse("").endsWith("/console")) {
            throw new IllegalStateException("sign-in failed: " + login.statusCode());
        }
        String page = http.send(HttpRequest.newBuilder(URI.create(base + "/console/tokens")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        String csrf = csrf(page);
        HttpResponse<Path> keysResponse = http.send(HttpRequest.newBuilder(
                URI.create(base + "/api/v1/audit/evidence/keys?tenant=" + tenant)).build(),
                HttpResponse.BodyHandlers.ofFile(keys));
        if (keysResponse.statusCode() != 200) {
            throw new IllegalStateException("keys: " + keysResponse.statusCode());
        }
        // The range ends now, after the runs; it may be exported once it ended a minute ago
        // (the export refuses a range that may still be being recorded).
        java.time.Instant now = java.time.Instant.now();
        System.out.println("waiting 62 s until the range has settled");
        Thread.sleep(Duration.ofSeconds(62));
        long start = System.nanoTime();
        HttpResponse<Path> response = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/audit/evidence?tenant="
                                + tenant + "&from=" + now.minus(Duration.ofDays(1)) + "&to=" + now
                                + "&_csrf=" + csrf))
                        .timeout(Duration.ofMinutes(30))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofFile(file));
        double seconds = (System.nanoTime() - start) / 1e9;
        if (response.statusCode() != 200) {
            throw new IllegalStateException("export: " + response.statusCode() + " " + Files.readString(file));
        }
        System.out.printf("EXPORT %.2f %d%n", seconds, Files.size(file));
    }

    private static String csrf(String html) {
        Matcher matcher = CSRF.matcher(html);
        if (!matcher.find()) {
            throw new IllegalStateException("no CSRF token on the page");
        }
        return matcher.group(1);
    }
}
