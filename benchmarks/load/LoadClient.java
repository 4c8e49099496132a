import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load client for gateway-load.sh. Measures, in one process and with the same concurrency: a
 * bare ProcessBuilder spawn loop of {@code true} (the baseline), the same spawn inside the
 * gateway's own sandbox (the command line the gateway used for a run of tool {@code hold}, read
 * from /proc, with {@code true} as the program), and the gateway running tool {@code true}. Only
 * talks to the gateway on localhost; must run as the gateway's user (or root) to read /proc.
 *
 * Usage: java LoadClient.java BASE_URL AGENTS RUNS_PER_AGENT
 * (the agents' keys: LOAD_KEYS=KEY[,KEY...] in the environment, agent a using key number a modulo
 * their count; default load-agent-key)
 *
 * The scale rows of gateway-load.sh (SCALE=1) use three more modes:
 * <pre>
 * java LoadClient.java throughput BASE_URL AGENTS RUNS_PER_AGENT KEY[,KEY...]  # warm-up, then the gateway row only;
 *                                             # agent a uses KEY number a modulo their count; prints "RESULT runs/s p50 p99"
 * java LoadClient.java park BASE_URL KEY TOOL COUNT FILE       # COUNT runs of TOOL left PENDING_APPROVAL; their ids to FILE
 * java LoadClient.java wait BASE_URL KEY FILE COUNT WAIT       # COUNT concurrent GET ?wait=WAIT on the runs in FILE
 * </pre>
 */
public class LoadClient {

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "throughput" -> {
                throughput(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4].split(","));
                return;
            }
            case "park" -> {
                park(args[1], args[2], args[3], Integer.parseInt(args[4]), Path.of(args[5]));
                return;
            }
            case "warmup" -> {
                warmup(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
                return;
            }
            case "wait" -> {
                waitOn(args[1], args[2], Path.of(args[3]), Integer.parseInt(args[4]), Duration.parse(args[5]));
                return;
            }
            default -> {
            }
        }
        String base = args[0];
        int agents = Integer.parseInt(args[1]);
        int perAgent = Integer.parseInt(args[2]);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        List<String> sandboxed = sandboxedTrue(http, base);
        System.err.println("sandboxed spawn: " + (sandboxed == null ? "none (the gateway runs without a sandbox)"
                : String.join(" ", sandboxed)));

        // Warm-up: every path, so that no measurement pays for JIT compilation.
        measure("warm-up spawn", agents, perAgent / 4 + 1, () -> spawn(List.of("true")));
        if (sandboxed != null) {
            measure("warm-up sandboxed spawn", agents, perAgent / 4 + 1, () -> spawn(sandboxed));
        }
        measure("warm-up gateway", agents, perAgent / 4 + 1, agent -> runTrue(http, base, keyOf(agent)));

        Result spawn = measure("bare spawn", agents, perAgent, () -> spawn(List.of("true")));
        long[] selfBefore = cpu("self");
        Result sandbox = sandboxed == null ? null : measure("bare sandboxed spawn", agents, perAgent, () -> spawn(sandboxed));
        long[] selfAfter = cpu("self");
        String gatewayPid = System.getenv("GATEWAY_PID");
        String postmasterPid = System.getenv("POSTGRES_PID");
        long[] jvmBefore = gatewayPid == null ? null : cpu(gatewayPid);
        long pgBefore = postmasterPid == null ? 0 : postgresCpu(postmasterPid);
        Result gateway = measure("gateway", agents, perAgent, agent -> runTrue(http, base, keyOf(agent)));
        long[] jvmAfter = gatewayPid == null ? null : cpu(gatewayPid);
        long pgAfter = postmasterPid == null ? 0 : postgresCpu(postmasterPid);

        System.out.println();
        System.out.printf("| %d concurrent agents, %d runs each | runs/s | p50 ms | p99 ms |%n", agents, perAgent);
        System.out.println("|---|---:|---:|---:|");
        System.out.println(spawn.row("bare ProcessBuilder spawn of `true`"));
        if (sandbox != null) {
            System.out.println(sandbox.row("bare spawn of `true` in the gateway's bubblewrap sandbox"));
        }
        System.out.println(gateway.row("gateway run of tool `true` (?wait)"));
        if (sandbox != null) {
            System.out.println(sandbox.versus("sandboxed / bare", spawn));
            System.out.println(gateway.versus("gateway / sandboxed", sandbox));
        }
        System.out.println(gateway.versus("gateway / bare", spawn));

        int total = agents * perAgent;
        if (jvmBefore != null && jvmAfter != null) {
            double sandboxSpawn = (selfAfter[1] - selfBefore[1]) / (double) total;
            double jvm = (jvmAfter[0] - jvmBefore[0]) / (double) total;
            double sandboxRun = (jvmAfter[1] - jvmBefore[1]) / (double) total;
            double postgres = (pgAfter - pgBefore) / (double) total;
            System.out.println();
            System.out.printf("| CPU per run, %d agents, by /proc (10 ms ticks over %d runs) | ms | target | met? |%n", agents, total);
            System.out.println("|---|---:|---:|---|");
            System.out.printf("| gateway JVM (its own threads) | %.2f | ≤ 4 | %s |%n", jvm, jvm <= 4 ? "yes" : "no");
            System.out.printf("| PostgreSQL (postmaster and its backends) | %.2f | ≤ 2 | %s |%n", postgres, postgres <= 2 ? "yes" : "no");
            System.out.printf("| the run's sandbox processes (the gateway's reaped children) | %.2f | ≤ bare sandboxed spawn %.2f | %s |%n",
                    sandboxRun, sandboxSpawn, sandboxRun <= sandboxSpawn * 1.1 ? "yes" : "no");
            System.out.printf("RESULT cpu jvm=%.2f postgres=%.2f sandbox=%.2f bare-sandbox=%.2f%n", jvm, postgres, sandboxRun,
                    sandboxSpawn);
        }
        if (sandbox != null) {
            System.out.printf("RESULT throughput agents=%d gateway=%.0f sandboxed=%.0f ratio=%.2f p50=%.2f sandboxed-p50=%.2f p99=%.2f%n",
                    agents, gateway.perSecond(), sandbox.perSecond(), gateway.perSecond() / sandbox.perSecond(), gateway.p50(),
                    sandbox.p50(), gateway.p99());
        }

        approvalToStart(base, 5, 30);
        breakdown(http, base, 20, 200);
    }

    /**
     * Where one run's time goes, one run at a time, by the times the gateway writes into the
     * envelope (same machine, same clock as this client): sent → createdAt (HTTP, authentication,
     * validation, policy), createdAt → startedAt (recording the run, handing it to the executor,
     * the sandbox's setup until the process is started), startedAt → endedAt (the process as the
     * gateway observed it), endedAt → answered (recording the result, building the envelope, HTTP).
     */
    static void breakdown(HttpClient http, String base, int warmUp, int runs) throws Exception {
        double[][] parts = new double[4][runs];
        for (int i = 0; i < warmUp + runs; i++) {
            java.time.Instant sent = java.time.Instant.now();
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/runs?wait=PT30S"))
                    .header("Authorization", "Bearer load-agent-key").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"tool\":\"true\",\"arguments\":{}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            java.time.Instant answered = java.time.Instant.now();
            Matcher created = CREATED.matcher(response.body());
            Matcher started = STARTED.matcher(response.body());
            Matcher ended = ENDED.matcher(response.body());
            if (!created.find() || !started.find() || !ended.find()) {
                throw new IllegalStateException("no times in " + response.body());
            }
            if (i < warmUp) {
                continue;
            }
            java.time.Instant[] at = {sent, java.time.Instant.parse(created.group(1)), java.time.Instant.parse(started.group(1)),
                java.time.Instant.parse(ended.group(1)), answered};
            for (int p = 0; p < 4; p++) {
                parts[p][i - warmUp] = java.time.Duration.between(at[p], at[p + 1]).toNanos() / 1e6;
            }
        }
        String[] names = {"sent -> createdAt", "createdAt -> startedAt", "startedAt -> endedAt", "endedAt -> answered"};
        System.out.println();
        System.out.println("| one run of `true`, " + runs + " one after another | p50 ms | p90 ms |");
        System.out.println("|---|---:|---:|");
        for (int p = 0; p < 4; p++) {
            Arrays.sort(parts[p]);
            System.out.printf("| %s | %.2f | %.2f |%n", names[p], parts[p][runs / 2], parts[p][(int) (runs * 0.9)]);
        }
    }

    static final Pattern CREATED = Pattern.compile("\"createdAt\":\"([^\"]+)\"");
    static final Pattern ENDED = Pattern.compile("\"endedAt\":\"([^\"]+)\"");

    /**
     * Approval to process start, as people see it: an approver signed in through the console
     * approves a parked run of tool {@code gated} with the console's form; the time is the run's
     * {@code startedAt} minus the decision's {@code decidedAt}, both written by the gateway.
     */
    static void approvalToStart(String base, int warmUp, int runs) throws Exception {
        HttpClient person = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .cookieHandler(new java.net.CookieManager()).followRedirects(HttpClient.Redirect.NEVER).build();
        String login = get(person, base + "/login");
        HttpResponse<String> signedIn = post(person, base + "/login", "username=alice&password=alice-password&_csrf="
                + csrf(login));
        if (signedIn.statusCode() != 302 || signedIn.headers().firstValue("Location").orElse("").contains("error")) {
            throw new IllegalStateException("sign-in failed: " + signedIn.statusCode() + " " + signedIn.headers().map());
        }
        HttpClient agent = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        double[] millis = new double[runs];
        for (int i = 0; i < warmUp + runs; i++) {
            HttpResponse<String> parked = agent.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/runs"))
                    .header("Authorization", "Bearer load-agent-key").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"tool\":\"gated\",\"arguments\":{}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher id = RUN_ID.matcher(parked.body());
            if (parked.statusCode() != 201 || !id.find()) {
                throw new IllegalStateException("unexpected response " + parked.statusCode() + ": " + parked.body());
            }
            String page = get(person, base + "/console/runs/" + id.group(1));
            Matcher digest = DIGEST.matcher(page);
            if (!digest.find()) {
                throw new IllegalStateException("no digest on the run's page");
            }
            HttpResponse<String> decided = post(person, base + "/console/runs/" + id.group(1) + "/decisions",
                    "decision=APPROVE&digest=" + digest.group(1) + "&_csrf=" + csrf(page));
            if (decided.statusCode() != 302) {
                throw new IllegalStateException("decision refused: " + decided.statusCode() + " " + decided.body());
            }
            String envelope = agent.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/runs/" + id.group(1) + "?wait=PT30S"))
                    .header("Authorization", "Bearer load-agent-key").build(), HttpResponse.BodyHandlers.ofString()).body();
            Matcher started = STARTED.matcher(envelope);
            Matcher at = DECIDED.matcher(envelope);
            if (!started.find() || !at.find()) {
                throw new IllegalStateException("no startedAt or decidedAt in " + envelope);
            }
            if (i >= warmUp) {
                millis[i - warmUp] = java.time.Duration.between(java.time.Instant.parse(at.group(1)),
                        java.time.Instant.parse(started.group(1))).toNanos() / 1e6;
            }
        }
        java.util.Arrays.sort(millis);
        System.out.println();
        System.out.println("| approval -> process start, " + runs + " runs one after another | p50 ms | p90 ms | max ms |");
        System.out.println("|---|---:|---:|---:|");
        System.out.printf("| decidedAt -> startedAt (both written by the gateway) | %.1f | %.1f | %.1f |%n",
                millis[runs / 2], millis[(int) (runs * 0.9)], millis[runs - 1]);
    }

    static final Pattern RUN_ID = Pattern.compile("\"runId\":\"([0-9a-f-]+)\"");
    static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
    static final Pattern DIGEST = Pattern.compile("name=\"digest\" value=\"([0-9a-f]{64})\"");
    static final Pattern STARTED = Pattern.compile("\"startedAt\":\"([^\"]+)\"");
    static final Pattern DECIDED = Pattern.compile("\"decidedAt\":\"([^\"]+)\"");

    /**
     * CPU time of {@code pid} ("self" for this process) from /proc/PID/stat, in milliseconds:
     * [its own threads (utime + stime), its reaped children (cutime + cstime)].
     */
    static long[] cpu(String pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", pid, "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long tick = 10; // USER_HZ is 100 on Linux
        return new long[] {(Long.parseLong(f[11]) + Long.parseLong(f[12])) * tick,
            (Long.parseLong(f[13]) + Long.parseLong(f[14])) * tick};
    }

    /** CPU milliseconds of a PostgreSQL server: the postmaster, its live children and the children it reaped. */
    static long postgresCpu(String postmaster) throws IOException {
        long total = 0;
        try (var entries = Files.list(Path.of("/proc"))) {
            for (Path dir : (Iterable<Path>) entries::iterator) {
                String pid = dir.getFileName().toString();
                if (!pid.matches("[0-9]+")) {
                    continue;
                }
                try {
                    String stat = Files.readString(dir.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    if (pid.equals(postmaster)) {
                        long[] own = cpu(pid);
                        total += own[0] + own[1];
                    } else if (f[1].equals(postmaster)) {
                        total += cpu(pid)[0];
                    }
                } catch (IOException | RuntimeException e) {
                    // The process went while we read it; its time is in the postmaster's reaped children.
                }
            }
        }
        return total;
    }

    /**
     * Warm-up from a fresh start: {@code total} runs by {@code agents} agents in windows of
     * {@code window} runs; prints each window's rate and the first window within 10 % of the
     * steady rate (the mean of the last three windows).
     */
    static void warmup(String base, int agents, int total, int window) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<Double> rates = new ArrayList<>();
        for (int done = 0; done < total; done += window) {
            int perAgent = Math.max(1, window / agents);
            long start = System.nanoTime();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int a = 0; a < agents; a++) {
                    pool.submit(() -> {
                        for (int i = 0; i < perAgent; i++) {
                            runTrue(http, base, KEY);
                        }
                        return null;
                    });
                }
            }
            rates.add(perAgent * agents / ((System.nanoTime() - start) / 1e9));
        }
        int n = rates.size();
        double steady = (rates.get(n - 1) + rates.get(n - 2) + rates.get(n - 3)) / 3;
        int first = 0;
        while (rates.get(first) < 0.9 * steady) {
            first++;
        }
        System.out.println();
        System.out.printf("| warm-up after a fresh start, %d agents, windows of %d runs | runs/s |%n", agents, window);
        System.out.println("|---|---:|");
        for (int i = 0; i < n; i++) {
            System.out.printf("| runs %d–%d | %.0f |%n", i * window + 1, (i + 1) * window, rates.get(i));
        }
        System.out.printf("| steady (last three windows) | %.0f |%n", steady);
        System.out.printf("RESULT warmup steady-within=%d runs (target ≤ 500: %s)%n", (first + 1) * window,
                (first + 1) * window <= 500 ? "met" : "not met");
    }

    static String csrf(String page) {
        Matcher m = CSRF.matcher(page);
        if (!m.find()) {
            throw new IllegalStateException("no CSRF token on the page");
        }
        return java.net.URLEncoder.encode(m.group(1), StandardCharsets.UTF_8);
    }

    static String get(HttpClient http, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    static HttpResponse<String> post(HttpClient http, String url, String form) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The gateway's sandbox command line for {@code true}: starts tool {@code hold} (a sleep),
     * reads its bubblewrap command line and host user from /proc, and swaps in a working
     * directory of our own and {@code /usr/bin/true} as the program. Null without a sandbox.
     */
    static List<String> sandboxedTrue(HttpClient http, String base) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/runs"))
                .header("Authorization", "Bearer load-agent-key")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"tool\":\"hold\",\"arguments\":{}}"))
                .build();
        Matcher id = Pattern.compile("\"runId\":\"([0-9a-f-]+)\"").matcher(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
        if (!id.find()) {
            throw new IllegalStateException("could not start tool hold");
        }
        byte[] marker = ("AIRLOCK_RUN_ID=" + id.group(1)).getBytes(StandardCharsets.UTF_8);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            try (var entries = Files.list(Path.of("/proc"))) {
                for (Path dir : (Iterable<Path>) entries::iterator) {
                    try {
                        if (!dir.getFileName().toString().matches("[0-9]+") || !Files.readString(dir.resolve("comm")).strip().equals("bwrap")
                                || !holds(Files.readAllBytes(dir.resolve("environ")), marker)) {
                            continue;
                        }
                        List<String> argv = new ArrayList<>(Arrays.asList(new String(Files.readAllBytes(dir.resolve("cmdline")),
                                StandardCharsets.UTF_8).split("\0")));
                        String uid = field(dir, "Uid:");
                        String gid = field(dir, "Gid:");
                        return withTrue(argv, uid, gid);
                    } catch (IOException e) {
                        // The process went while we read it; look again.
                    }
                }
            }
            Thread.sleep(20);
        }
        return null;
    }

    static List<String> withTrue(List<String> argv, String uid, String gid) throws IOException {
        Path dir = Files.createTempDirectory("airlock-load-");
        dir.toFile().deleteOnExit();
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        // The gateway sets the run's OOM preference on the host before the sandbox (choom, which then
        // executes setpriv or bwrap, so it is not in bwrap's command line): the same here.
        List<String> command = new ArrayList<>(List.of("choom", "-n", "1000", "--"));
        if (!uid.equals(Long.toString((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")))) {
            // The gateway runs as root and starts sandboxes as an unprivileged host user, through setpriv.
            Files.setAttribute(dir, "unix:uid", Integer.parseInt(uid));
            Files.setAttribute(dir, "unix:gid", Integer.parseInt(gid));
            command.addAll(List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--no-new-privs", "--"));
        }
        int chdir = argv.indexOf("--chdir");
        String workingDir = argv.get(chdir + 1);
        int program = argv.lastIndexOf("--") + 1;
        List<String> options = argv.subList(0, program);
        for (int i = 0; i < options.size(); i++) {
            String arg = options.get(i);
            // The gateway hands bubblewrap its mount sources as descriptors this process does not have:
            // the same mounts by path (the host's passwd and group stand in for the gateway's own).
            if ((arg.equals("--ro-bind-fd") || arg.equals("--bind-fd")) && i + 2 < options.size()) {
                String target = options.get(i + 2);
                String source = target.equals(workingDir) ? dir.toString() : target;
                command.addAll(List.of(arg.equals("--bind-fd") ? "--bind" : "--ro-bind", source,
                        target.equals(workingDir) ? dir.toString() : target));
                i += 2;
            } else if (arg.equals("--block-fd") && i + 1 < options.size()) {
                i += 1; // the gateway's sandbox waits there until its run is recorded; a bare spawn starts at once
            } else if (arg.equals("--json-status-fd") && i + 1 < options.size()) {
                command.addAll(List.of(arg, "2")); // to standard error, which spawn() reads, as the gateway reads its pipe
                i += 1;
            } else {
                command.add(arg.equals(workingDir) ? dir.toString() : arg);
            }
        }
        command.add("/usr/bin/true");
        return command;
    }

    static String field(Path dir, String name) throws IOException {
        return Files.readAllLines(dir.resolve("status")).stream().filter(l -> l.startsWith(name)).findFirst()
                .orElseThrow().split("\\s+")[1];
    }

    static boolean holds(byte[] environ, byte[] entry) {
        int start = 0;
        for (int i = 0; i <= environ.length; i++) {
            if (i == environ.length || environ[i] == 0) {
                if (Arrays.equals(environ, start, i, entry, 0, entry.length)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    record Result(double perSecond, double p50, double p99) {
        String row(String name) {
            return String.format("| %s | %.0f | %.2f | %.2f |", name, perSecond, p50, p99);
        }

        String versus(String name, Result base) {
            return String.format("| %s | %.2f× | %+.2f ms | %+.2f ms |", name, perSecond / base.perSecond, p50 - base.p50, p99 - base.p99);
        }
    }

    interface Call {
        void run() throws Exception;
    }

    interface AgentCall {
        void run(int agent) throws Exception;
    }

    static Result measure(String name, int agents, int perAgent, Call call) throws Exception {
        return measure(name, agents, perAgent, (AgentCall) agent -> call.run());
    }

    static Result measure(String name, int agents, int perAgent, AgentCall call) throws Exception {
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> futures = new ArrayList<>();
            for (int a = 0; a < agents; a++) {
                int agent = a;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perAgent; i++) {
                        long t = System.nanoTime();
                        call.run(agent);
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

    static void spawn(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
        Process p = builder.start();
        p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(command.get(0) + " failed: " + new String(err, StandardCharsets.UTF_8));
        }
    }

    /**
     * The gateway row alone, for the scale rows: a warm-up of a quarter of the runs, then AGENTS
     * concurrent agents each running tool {@code true} RUNS times; agent a signs in with
     * {@code keys[a % keys.length]} (so the load can be spread over several tenants).
     */
    static void throughput(String base, int agents, int perAgent, String[] keys) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        measure("warm-up gateway", agents, perAgent / 4 + 1, agent -> runTrue(http, base, keys[agent % keys.length]));
        Result r = measure("gateway", agents, perAgent, agent -> runTrue(http, base, keys[agent % keys.length]));
        System.out.printf(java.util.Locale.ROOT, "RESULT %.1f %.2f %.2f%n", r.perSecond(), r.p50(), r.p99());
    }

    /** Requests COUNT runs of an approval-gated tool (16 at a time) and writes their ids, one a line. */
    static void park(String base, String key, String tool, int count, Path file) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<String> ids = Collections.synchronizedList(new ArrayList<>());
        int agents = 16;
        measure("park", agents, 1, agent -> {
            for (int i = agent; i < count; i += agents) {
                HttpResponse<String> parked = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/runs"))
                        .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"tool\":\"" + tool + "\",\"arguments\":{}}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                Matcher id = RUN_ID.matcher(parked.body());
                Matcher state = STATE.matcher(parked.body());
                if (parked.statusCode() != 201 || !id.find() || !state.find() || !state.group(1).equals("PENDING_APPROVAL")) {
                    throw new IllegalStateException("not parked: " + parked.statusCode() + " " + parked.body());
                }
                ids.add(id.group(1));
            }
        });
        Files.write(file, ids);
        System.err.printf("parked %d runs of %s%n", ids.size(), tool);
    }

    /**
     * COUNT concurrent {@code GET /api/v1/runs/{id}?wait=WAIT}, one per run in FILE, each on its own
     * connection; prints "sent" once every request is under way and, when all have returned, how
     * many answered 200 with the run still PENDING_APPROVAL and how long they waited.
     */
    static void waitOn(String base, String key, Path file, int count, Duration wait) throws Exception {
        List<String> ids = Files.readAllLines(file);
        if (ids.size() < count) {
            throw new IllegalArgumentException("only " + ids.size() + " runs in " + file);
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        double[] seconds = new double[count];
        java.util.Map<String, Integer> outcomes = new java.util.concurrent.ConcurrentSkipListMap<>();
        java.util.concurrent.CountDownLatch sent = new java.util.concurrent.CountDownLatch(count);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                int n = i;
                pool.submit(() -> {
                    long t = System.nanoTime();
                    String outcome;
                    try {
                        var future = http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/api/v1/runs/" + ids.get(n) + "?wait=" + wait))
                                .header("Authorization", "Bearer " + key).timeout(wait.plusSeconds(60)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        sent.countDown();
                        HttpResponse<String> response = future.get();
                        Matcher state = STATE.matcher(response.body());
                        outcome = response.statusCode() + " " + (state.find() ? state.group(1) : "?");
                    } catch (Exception e) {
                        sent.countDown();
                        outcome = e.getClass().getSimpleName();
                    }
                    seconds[n] = (System.nanoTime() - t) / 1e9;
                    outcomes.merge(outcome, 1, Integer::sum);
                    return null;
                });
            }
            sent.await();
            System.out.println("sent " + count);
            System.out.flush();
        }
        Arrays.sort(seconds);
        System.out.printf(java.util.Locale.ROOT, "WAITED %d requests: %s; waited min %.1f s, median %.1f s, max %.1f s%n", count,
                outcomes, seconds[0], seconds[count / 2], seconds[count - 1]);
    }

    static final Pattern STATE = Pattern.compile("\"state\":\"([A-Z_]+)\"");

    static final String KEY = "load-agent-key";

    /** The keys the main measurement's agents use (LOAD_KEYS, comma-separated; default {@link #KEY}). */
    static final String[] LOAD_KEYS = System.getenv().getOrDefault("LOAD_KEYS", KEY).split(",");

    static String keyOf(int agent) {
        return LOAD_KEYS[agent % LOAD_KEYS.length];
    }

    static void runTrue(HttpClient http, String base, String key) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/runs?wait=PT30S"))
                .header("Authorization", "Bearer " + key)
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
