package dev.airlock.gateway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.approval.request.ApprovalService;
import dev.airlock.gateway.AirlockApplication;
import dev.airlock.gateway.run.RunService;
import dev.airlock.gateway.support.Decisions;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.persistence.approval.Verdict;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Airlock as a cluster on one PostgreSQL: several instances execute each approved run exactly
 * once (counted by its side effect), a replica killed with SIGKILL leaves its run INTERRUPTED
 * and never re-executed, SIGTERM drains a run to its recorded end, and a database outage is
 * answered with 503s and loses nothing that was acknowledged.
 */
class ClusterIntegrationTests {

    private static final AgentIdentity BOT = new AgentIdentity("cluster", "bot");
    private static final String KEY = "cluster-bot-key";
    private static final Duration LEASE = Duration.ofSeconds(9);

    @TempDir
    static Path work;

    private static ConfigurableApplicationContext first;
    private static String url;
    private static String password;
    private static final String OUTAGE_PASSWORD = "outage-test-password-0123456789";
    private static final List<ConfigurableApplicationContext> others = new ArrayList<>();
    /** The first instance's database, reached through a relay the test can freeze (null until made). */
    private static String relayed;

    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startFirst() throws IOException {
        first = start("first", toolDir("marks"), null);
        url = "jdbc:postgresql://localhost:"
                + first.getBean(EmbeddedPostgres.class).getPort() + "/postgres";
        password = first.getBean(org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails.class)
                .getPassword();
    }

    @AfterAll
    static void stopAll() {
        others.forEach(ConfigurableApplicationContext::close);
        if (first != null) {
            first.close();
        }
    }

    /**
     * A working directory the sandboxed tools may write their marks into: sandboxes of a gateway
     * running as root execute as an unprivileged host user, which the JUnit temporary directory
     * (owner only) would shut out.
     */
    private static Path toolDir(String name) throws IOException {
        Path dir = Path.of(System.getProperty("user.dir"), "target", "tool-work", name + "-" + UUID.randomUUID())
                .toAbsolutePath();
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        return dir;
    }

    private static ConfigurableApplicationContext start(String node, Path marks, String datasourceUrl, String... extra)
            throws IOException {
        return start(node, marks, datasourceUrl, List.of(), extra);
    }

    private static ConfigurableApplicationContext start(
            String node, Path marks, String datasourceUrl, List<Class<?>> sources, String... extra) throws IOException {
        Files.createDirectories(marks);
        List<String> args = new ArrayList<>(List.of(
                "--airlock.data-dir=" + work.resolve("data-" + node),
                "--server.port=0",
                "--airlock.node-id=" + node,
                // Many replicas share one PostgreSQL (100 connections): each holds few while idle.
                "--spring.datasource.hikari.minimum-idle=2",
                "--airlock.tenants.cluster.tools.mark.working-dir=" + marks,
                "--airlock.tenants.cluster.tools.sleeper.working-dir=" + marks,
                "--airlock.tenants.cluster.tools.beater.working-dir=" + marks));
        if (datasourceUrl != null) {
            // Another replica signs in as the application login; the first instance migrated already.
            args.add("--spring.datasource.url=" + datasourceUrl);
            args.add("--spring.datasource.username=airlock_app");
            boolean firstDatabase = datasourceUrl.equals(url) || datasourceUrl.equals(relayed);
            args.add("--spring.datasource.password=" + (firstDatabase ? password : OUTAGE_PASSWORD));
            if (!firstDatabase) {
                args.add("--spring.flyway.user=postgres");
                args.add("--spring.flyway.password=");
            } else {
                args.add("--spring.flyway.enabled=false");
            }
        }
        if (java.util.Arrays.stream(extra).noneMatch(a -> a.startsWith("--airlock.executor.lease-ttl="))) {
            args.add("--airlock.executor.lease-ttl=" + LEASE);
        }
        if (java.util.Arrays.stream(extra)
                .noneMatch(a -> a.startsWith("--spring.datasource.hikari.maximum-pool-size"))) {
            args.add("--spring.datasource.hikari.maximum-pool-size=10");
        }
        args.addAll(List.of(extra));
        List<Class<?>> all = new ArrayList<>(List.of(AirlockApplication.class));
        all.addAll(sources);
        return new SpringApplicationBuilder(all.toArray(Class<?>[]::new))
                .profiles("test")
                .run(args.toArray(String[]::new));
    }

    private static JdbcClient db() {
        return dev.airlock.gateway.support.OwnerDatabase.jdbc(first);
    }

    private static String state(UUID runId) {
        return db().sql("SELECT state FROM airlock.runs WHERE id = ?")
                .param(runId)
                .query(String.class)
                .single();
    }

    private static void await(Duration limit, String what, BooleanSupplier condition) {
        org.awaitility.Awaitility.await(what)
                .atMost(limit)
                .pollInterval(Duration.ofMillis(100))
                .until(condition::getAsBoolean);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void threeInstancesExecuteEachOf200ApprovedRunsExactlyOnce() throws Exception {
        Path marks = toolDir("marks-200");
        ConfigurableApplicationContext second = start("second", marks, url);
        ConfigurableApplicationContext third = start("third", marks, url);
        others.add(second);
        others.add(third);
        ConfigurableApplicationContext submitter = start("submitter", marks, url);
        others.add(submitter);
        List<ConfigurableApplicationContext> deciders = List.of(second, third, submitter);

        RunService runs = submitter.getBean(RunService.class);
        List<UUID> ids = new ArrayList<>();
        try (var scope = dev.airlock.persistence.scope.DatabaseScope.of(
                        dev.airlock.persistence.scope.DatabaseRole.GATEWAY, List.of(BOT.tenant()))
                .open()) {
            for (int i = 0; i < 200; i++) {
                ids.add(runs.submit(BOT, "mark", Map.of(), null).run().id());
            }
        }
        for (int i = 0; i < ids.size(); i++) {
            ApprovalService approvals = deciders.get(i % deciders.size()).getBean(ApprovalService.class);
            Decisions.decide(approvals, "alice", "cluster", ids.get(i), Verdict.APPROVE, null);
        }
        await(
                Duration.ofSeconds(120),
                "200 completed runs",
                () -> db().sql("SELECT count(*) FROM airlock.runs WHERE id = ANY(?) AND state = 'COMPLETED'")
                                .param(ids.toArray(UUID[]::new))
                                .query(Long.class)
                                .single()
                        == 200);

        List<String> executed = lines(marks.resolve("marks"));
        assertThat(executed).hasSize(200);
        assertThat(new HashSet<>(executed))
                .isEqualTo(new HashSet<>(ids.stream().map(UUID::toString).toList()));
        List<String> nodes = db().sql("SELECT DISTINCT claimed_by FROM airlock.runs WHERE id = ANY(?)")
                .param(ids.toArray(UUID[]::new))
                .query(String.class)
                .list();
        assertThat(nodes).as("claims spread over the instances").hasSizeGreaterThanOrEqualTo(2);
        // Their connections back to the shared PostgreSQL for the tests after this one.
        for (ConfigurableApplicationContext replica : deciders) {
            replica.close();
            others.remove(replica);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The packaged gateway in a JVM of its own, so that it can be killed like a real replica. */
    private Process replica(String node, Path marks, int port, String... extra) throws Exception {
        Files.createDirectories(marks);
        Path jar = Path.of("target", "airlock-gateway.jar").toAbsolutePath();
        assertThat(jar).as("the packaged gateway (failsafe runs after package)").exists();
        String java = ProcessHandle.current().info().command().orElse("java");
        Path log = work.resolve(node + ".log");
        ProcessBuilder builder = new ProcessBuilder(
                        java,
                        "-jar",
                        jar.toString(),
                        "--spring.profiles.active=test",
                        "--spring.config.additional-location=file:"
                                + Path.of("target", "test-classes").toAbsolutePath() + "/",
                        "--server.port=" + port,
                        "--airlock.node-id=" + node,
                        "--spring.datasource.hikari.minimum-idle=2",
                        "--spring.datasource.hikari.maximum-pool-size=10",
                        "--airlock.data-dir=" + work.resolve("data-" + node),
                        "--airlock.executor.lease-ttl=" + LEASE,
                        "--airlock.tenants.cluster.tools.sleeper.working-dir=" + marks,
                        "--airlock.tenants.cluster.tools.mark.working-dir=" + marks,
                        "--spring.datasource.url=" + url,
                        "--spring.datasource.username=airlock_app",
                        "--spring.datasource.password=" + password,
                        "--spring.flyway.enabled=false")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.command().addAll(List.of(extra));
        Process process = builder.start();
        org.awaitility.Awaitility.await("replica " + node + " ready (see " + log + ")")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    assertThat(process.isAlive())
                            .as("replica %s is up (see %s)", node, log)
                            .isTrue();
                    try {
                        return http.send(
                                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                                                                + "/actuator/health/readiness"))
                                                        .build(),
                                                HttpResponse.BodyHandlers.ofString())
                                        .statusCode()
                                == 200;
                    } catch (IOException notYet) {
                        return false;
                    }
                });
        return process;
    }

    private HttpResponse<String> submit(int port, String tool, String arguments) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/runs"))
                        .header("Authorization", "Bearer " + KEY)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"tool\":\"" + tool + "\",\"arguments\":" + arguments + "}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static UUID runId(HttpResponse<String> response) {
        Matcher m = Pattern.compile("\"runId\":\"([0-9a-f-]+)\"").matcher(response.body());
        assertThat(m.find()).as(response.body()).isTrue();
        return UUID.fromString(m.group(1));
    }

    /** A sleeper run on the replica at {@code port}, once its tool has really started (it wrote its mark). */
    private UUID startedSleeper(int port, Path marks, int seconds) throws Exception {
        HttpResponse<String> accepted = submit(port, "sleeper", "{\"seconds\":" + seconds + "}");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(201);
        UUID runId = runId(accepted);
        await(
                Duration.ofSeconds(20),
                "the tool started",
                () -> lines(marks.resolve("marks")).contains(runId.toString()));
        return runId;
    }

    @Test
    void aReplicaThatNoLongerHoldsARunsLeaseStopsItsProcess() throws Exception {
        Path marks = toolDir("marks-lease");
        ConfigurableApplicationContext holder = start("holder", marks, url);
        try {
            int port = Integer.parseInt(holder.getEnvironment().getProperty("local.server.port"));
            UUID runId = startedSleeper(port, marks, 60);
            assertThat(dev.airlock.gateway.support.HostProcesses.withEnvironment("AIRLOCK_RUN_ID=" + runId))
                    .as("the tool runs")
                    .isNotEmpty();
            // Another replica took the run over, as it would after this one paused past its lease.
            db().sql("UPDATE airlock.runs SET claimed_by = 'another-replica' WHERE id = ?")
                    .param(runId)
                    .update();
            await(
                    LEASE.plusSeconds(5),
                    "the process gone within a renewal",
                    () -> dev.airlock.gateway.support.HostProcesses.withEnvironment("AIRLOCK_RUN_ID=" + runId)
                            .isEmpty());
        } finally {
            holder.close();
        }
    }

    /** A replica whose clock is an hour ahead of the database's. */
    @org.springframework.boot.test.context.TestConfiguration(proxyBeanMethods = false)
    static class ClockAnHourAhead {
        @org.springframework.context.annotation.Bean
        @org.springframework.context.annotation.Primary
        java.time.Clock skewedClock() {
            return java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofHours(1));
        }
    }

    /** A replica whose clock is an hour behind the database's. */
    @org.springframework.boot.test.context.TestConfiguration(proxyBeanMethods = false)
    static class ClockAnHourBehind {
        @org.springframework.context.annotation.Bean
        @org.springframework.context.annotation.Primary
        java.time.Clock skewedClock() {
            return java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofHours(-1));
        }
    }

    private static int port(ConfigurableApplicationContext replica) {
        return Integer.parseInt(replica.getEnvironment().getProperty("local.server.port"));
    }

    /** How long the run's lease has left by the database's clock. */
    private static Duration leaseLeft(UUID runId) {
        double seconds = db().sql("SELECT extract(epoch FROM lease_until - now()) FROM airlock.runs WHERE id = ?")
                .param(runId)
                .query(Double.class)
                .single();
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    @Test
    void leasesAreTimedByTheDatabaseSoAReplicaWhoseClockIsWrongEndsNoLiveRun() throws Exception {
        Path marks = toolDir("marks-clocks");
        ConfigurableApplicationContext ahead =
                start("ahead", marks, url, List.of(ClockAnHourAhead.class), "--airlock.executor.drain-timeout=PT1S");
        ConfigurableApplicationContext behind =
                start("behind", marks, url, List.of(ClockAnHourBehind.class), "--airlock.executor.drain-timeout=PT1S");
        try {
            UUID onAhead = startedSleeper(port(ahead), marks, 60);
            UUID onBehind = startedSleeper(port(behind), marks, 60);
            assertThat(leaseLeft(onAhead)).as("a lease claimed an hour ahead").isBetween(Duration.ZERO, LEASE);
            assertThat(leaseLeft(onBehind)).as("a lease claimed an hour behind").isBetween(Duration.ZERO, LEASE);
            // Every replica (this class's first one too) checks leases every half second meanwhile, and
            // the runs' own replicas renew theirs.
            org.awaitility.Awaitility.await("both runs stay RUNNING for two leases")
                    .during(LEASE.multipliedBy(2))
                    .atMost(LEASE.multipliedBy(3))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() ->
                            state(onAhead).equals("RUNNING") && state(onBehind).equals("RUNNING"));
            assertThat(leaseLeft(onAhead)).as("renewed by the database's clock").isBetween(Duration.ZERO, LEASE);
        } finally {
            ahead.close();
            behind.close();
        }
    }

    @Test
    void aSecondLiveReplicaWithTheSameNodeIdStopsItsStartAndEndsNothing() throws Exception {
        Path marks = toolDir("marks-twins");
        ConfigurableApplicationContext one = start("twin", marks, url, "--airlock.executor.drain-timeout=PT1S");
        try {
            UUID runId = startedSleeper(port(one), marks, 60);
            assertThatThrownBy(() -> start("twin", marks, url, "--airlock.executor.node-lock-wait=PT2S"))
                    .hasStackTraceContaining("airlock.node-id")
                    .hasStackTraceContaining("another live replica on this database uses the node id 'twin'");
            assertThat(state(runId)).as("the live replica's run").isEqualTo("RUNNING");
            assertThat(dev.airlock.gateway.support.HostProcesses.withEnvironment("AIRLOCK_RUN_ID=" + runId))
                    .as("its process")
                    .isNotEmpty();
        } finally {
            one.close();
        }
        // The replica that held the id is gone, and with its session the lock: a restart under it starts.
        start("twin", marks, url).close();
    }

    @Test
    void anAgentSideWithTooSmallAPoolStopsItsStartNamingTheSetting() throws Exception {
        assertThatThrownBy(() -> start(
                        "small-pool", toolDir("marks-small"), url, "--spring.datasource.hikari.maximum-pool-size=3"))
                .hasStackTraceContaining("spring.datasource.hikari.maximum-pool-size")
                .hasStackTraceContaining("at least 4");
    }

    @Test
    void aReplicaKilledMidRunLeavesItInterruptedAndItNeverRunsAgain() throws Exception {
        Path marks = toolDir("marks-killed");
        // Under target/, not the test's private temporary directory: the sandbox's host user must pass through it.
        Path workArea = Path.of(System.getProperty("user.dir"), "target", "work-area-" + UUID.randomUUID())
                .toAbsolutePath();
        int port = freePort();
        Process victim = replica("victim", marks, port, "--airlock.sandbox.work-dir=" + workArea);
        UUID runId = startedSleeper(port, marks, 60);
        assertThat(state(runId)).isEqualTo("RUNNING");
        List<Path> victimsArea = replicaAreas(workArea);
        assertThat(victimsArea).hasSize(1);

        victim.destroyForcibly();
        assertThat(victim.waitFor(20, TimeUnit.SECONDS)).isTrue();
        long killed = System.nanoTime();
        // Bound: the lease (renewed every third of it, so at most LEASE after the kill) plus a few
        // of the survivors' half-second checks.
        await(
                LEASE.plusSeconds(5),
                "INTERRUPTED within the lease plus 5 s",
                () -> state(runId).equals("INTERRUPTED"));
        System.out.printf(
                "run interrupted %d ms after the kill (lease %s)%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed), LEASE);
        Map<String, Object> row = db().sql("SELECT termination, exit_code, ended_at FROM airlock.runs WHERE id = ?")
                .param(runId)
                .query()
                .singleRow();
        assertThat(row.get("termination")).isEqualTo("LOST");
        assertThat(row.get("exit_code")).isNull();
        assertThat(row.get("ended_at")).isNotNull();
        assertThat(db().sql("SELECT count(*) FROM airlock.audit_events WHERE run_id = ? AND type = 'run.interrupted'")
                        .param(runId)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);

        org.awaitility.Awaitility.await("the run stays INTERRUPTED for a whole lease")
                .during(LEASE)
                .atMost(LEASE.multipliedBy(2))
                .until(() -> state(runId).equals("INTERRUPTED"));
        assertThat(lines(marks.resolve("marks"))).containsExactly(runId.toString());

        // What the killed replica left on the host goes when a replica starts again with the same work area,
        // and the interrupted run says what ran it and that its output was not recorded.
        assertThat(victimsArea.get(0)).as("left behind by the kill").exists();
        int again = freePort();
        Process restarted = replica("restarted", marks, again, "--airlock.sandbox.work-dir=" + workArea);
        try {
            assertThat(victimsArea.get(0)).doesNotExist();
            assertThat(replicaAreas(workArea)).hasSize(1).doesNotContainAnyElementsOf(victimsArea);
            HttpResponse<String> envelope = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + again + "/api/v1/runs/" + runId))
                            .header("Authorization", "Bearer " + KEY)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(envelope.body())
                    .contains("\"state\":\"INTERRUPTED\"")
                    .contains("\"sandbox\":\"bubblewrap\"")
                    .contains("was not recorded");
        } finally {
            restarted.destroy();
            restarted.waitFor(60, TimeUnit.SECONDS);
        }
    }

    private static List<Path> replicaAreas(Path workArea) throws IOException {
        try (var entries = Files.list(workArea)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("replica-"))
                    .toList();
        }
    }

    @Test
    void sigtermDrainsARunInFlightAndRecordsItsResult() throws Exception {
        Path marks = toolDir("marks-drained");
        int port = freePort();
        Process replica = replica("drained", marks, port);
        UUID runId = startedSleeper(port, marks, 10);

        replica.destroy();
        assertThat(replica.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(state(runId)).isEqualTo("COMPLETED");
        assertThat(db().sql("SELECT exit_code FROM airlock.runs WHERE id = ?")
                        .param(runId)
                        .query(Integer.class)
                        .single())
                .isZero();
        assertThat(Files.readString(work.resolve("drained.log"))).contains("Draining: 1 run(s) in flight");
    }

    @Test
    void aDrainingReplicaKeepsItsLeasesAndHonoursACancelAskedOnAnotherReplica() throws Exception {
        Path marks = toolDir("marks-draining");
        int port = freePort();
        Process replica = replica("draining", marks, port);
        UUID runId = startedSleeper(port, marks, 20);

        replica.destroy(); // SIGTERM: the drain lets the run go on, up to its 25 s
        await(
                Duration.ofSeconds(20),
                "the drain began",
                () -> String.join("\n", lines(work.resolve("draining.log"))).contains("Draining: 1 run(s) in flight"));
        // The scheduler stops its tasks when the context starts closing, before the drain.
        Thread.sleep(LEASE.multipliedBy(2).toMillis());
        assertThat(db().sql("SELECT lease_until > now() FROM airlock.runs WHERE id = ?")
                        .param(runId)
                        .query(Boolean.class)
                        .single())
                .as("the lease is renewed while the replica drains")
                .isTrue();
        // As the cancel endpoint of another replica records it.
        db().sql("UPDATE airlock.runs SET cancel_requested = true WHERE id = ?")
                .param(runId)
                .update();
        assertThat(replica.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(state(runId)).as("cancelled, not left to complete").isEqualTo("CANCELLED");
    }

    /**
     * A PostgreSQL of the outage tests' own at {@code pgData} (kept between its stops, so that it comes back
     * with what it had), fsync on, on {@code pgPort}.
     */
    /** A PostgreSQL of the test's own, which the outage tests stop and start again, with the application's login. */
    private static EmbeddedPostgres postgresWithLogin(Path data, int port) throws IOException {
        EmbeddedPostgres postgres = postgresAt(data, port);
        dev.airlock.persistence.database.ApplicationLogin.create(
                postgres.getPostgresDatabase(), "airlock_app", OUTAGE_PASSWORD);
        return postgres;
    }

    private static EmbeddedPostgres postgresAt(Path pgData, int pgPort) throws IOException {
        Files.createDirectories(pgData);
        return EmbeddedPostgres.builder()
                .setDataDirectory(pgData)
                .setCleanDataDirectory(false)
                .setPort(pgPort)
                .setServerConfig("fsync", "on")
                .start();
    }

    /**
     * A replica the network cuts off from PostgreSQL, while its peer still reaches it, cannot renew its leases: the
     * peer ends its run INTERRUPTED once the lease has run out. By then the cut-off replica has stopped the run's
     * process itself, so nothing acts on a run the cluster has given up; once it reaches the database again it records
     * what it observed (the run stopped: CANCELLED).
     */
    @Test
    void aReplicaCutOffFromTheDatabaseStopsItsRunsBeforeAPeerEndsThem() throws Exception {
        Path marks = toolDir("marks-partition");
        int pgPort = first.getBean(EmbeddedPostgres.class).getPort();
        try (FreezableRelay relay = new FreezableRelay(pgPort)) {
            relayed = "jdbc:postgresql://localhost:" + relay.port() + "/postgres";
            ConfigurableApplicationContext cutOff =
                    start("cut-off", marks, relayed, "--airlock.executor.lease-ttl=PT18S");
            try {
                HttpResponse<String> accepted = submit(port(cutOff), "beater", "{}");
                assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(201);
                UUID runId = runId(accepted);
                Path beats = marks.resolve("beats-" + runId);
                await(
                        Duration.ofSeconds(20),
                        "the tool beats",
                        () -> lines(beats).size() > 2);
                relay.freeze();
                // The first instance, in touch with the database all along, ends the run once its lease runs out.
                await(
                        Duration.ofSeconds(30),
                        "the peer ended the run",
                        () -> state(runId).equals("INTERRUPTED"));
                long leaseRanOut = db().sql("SELECT (extract(epoch FROM ended_at) * 1000)::bigint FROM airlock.runs"
                                + " WHERE id = ?")
                        .param(runId)
                        .query(Long.class)
                        .single();
                List<String> beaten = lines(beats);
                assertThat(Long.parseLong(beaten.getLast().strip()))
                        .as("the tool's last beat came before the run's lease ran out (the earliest a peer may end it)")
                        .isLessThan(leaseRanOut);
                Thread.sleep(500);
                assertThat(lines(beats)).as("and none since").hasSize(beaten.size());
                relay.thaw();
                await(
                        Duration.ofSeconds(60),
                        "the cut-off replica's own result written once it reached the database again",
                        () -> state(runId).equals("CANCELLED"));
            } finally {
                relay.thaw();
                cutOff.close();
            }
        }
    }

    /**
     * Down for longer than a lease: no replica ends a run another still holds (a peer first waits to be in touch with
     * the database for a whole lease, by when the owner has renewed). The owner, which cannot tell the outage from a
     * partition, has stopped the run's process itself meanwhile, and records that.
     */
    @Test
    void anOutageLongerThanALeaseEndsNoRunThatIsStillExecuting() throws Exception {
        Path pgData = work.resolve("long-outage-pg");
        int pgPort = freePort();
        EmbeddedPostgres postgres = postgresWithLogin(pgData, pgPort);
        Path marks = toolDir("marks-long-outage");
        String outageUrl = "jdbc:postgresql://localhost:" + pgPort + "/postgres";
        // A lease longer than the pool's 5 s wait for a connection, as in production (30 s): after the outage a
        // replica's first renewal may wait that long for its pool to connect again.
        Duration lease = Duration.ofSeconds(8);
        ConfigurableApplicationContext executing =
                start("long-a", marks, outageUrl, "--airlock.executor.lease-ttl=" + lease);
        others.add(executing);
        ConfigurableApplicationContext peer =
                start("long-b", marks, outageUrl, "--airlock.executor.lease-ttl=" + lease);
        others.add(peer);
        int port = Integer.parseInt(executing.getEnvironment().getProperty("local.server.port"));
        HttpResponse<String> running = submit(port, "sleeper", "{\"seconds\":35}");
        assertThat(running.statusCode()).as(running.body()).isEqualTo(201);
        UUID runId = runId(running);
        await(
                Duration.ofSeconds(20),
                "the tool started",
                () -> lines(marks.resolve("marks")).size() == 1);

        // Down for longer than a lease: by the database's clock every lease has run out when it answers again.
        postgres.close();
        // Bound: the fence stops the run a sixth of the lease and a check before it runs out, counted from the last
        // renewal's start (before the close); two seconds more for the kill on a loaded machine.
        await(
                lease.plusSeconds(2),
                "the process stopped by its own replica",
                () -> dev.airlock.gateway.support.HostProcesses.withEnvironment("AIRLOCK_RUN_ID=" + runId)
                        .isEmpty());
        Thread.sleep(lease.plusSeconds(4).toMillis());
        EmbeddedPostgres again = postgresAt(pgData, pgPort);
        try {
            JdbcClient jdbc = JdbcClient.create(again.getPostgresDatabase());
            await(
                    Duration.ofSeconds(60),
                    "the run ended",
                    () -> jdbc.sql("SELECT state FROM airlock.runs WHERE id = ?")
                            .param(runId)
                            .query(String.class)
                            .optional()
                            .filter(state -> !state.equals("RUNNING"))
                            .isPresent());
            assertThat(jdbc.sql(
                                    "SELECT count(*) FROM airlock.audit_events WHERE run_id = ? AND type = 'run.interrupted'")
                            .param(runId)
                            .query(Long.class)
                            .single())
                    .as("neither replica ended the run its live peer was executing")
                    .isZero();
            assertThat(jdbc.sql("SELECT state FROM airlock.runs WHERE id = ?")
                            .param(runId)
                            .query(String.class)
                            .single())
                    .isEqualTo("CANCELLED");
        } finally {
            executing.close();
            peer.close();
            others.remove(executing);
            others.remove(peer);
            again.close();
        }
    }

    @Test
    @org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
    void aDatabaseOutageIsAnswered503AndLosesNothingAcknowledged(
            org.springframework.boot.test.system.CapturedOutput output) throws Exception {
        Path pgData = work.resolve("outage-pg");
        int pgPort = freePort();
        EmbeddedPostgres postgres = postgresWithLogin(pgData, pgPort);
        Path marks = toolDir("marks-outage");
        // A lease long enough that the replica does not stop its run (its leases unrenewed) before the run ends.
        ConfigurableApplicationContext instance = start(
                "outage",
                marks,
                "jdbc:postgresql://localhost:" + pgPort + "/postgres",
                "--airlock.executor.lease-ttl=PT12S");
        others.add(instance);
        int port = Integer.parseInt(instance.getEnvironment().getProperty("local.server.port"));
        List<UUID> acknowledged = new ArrayList<>();

        HttpResponse<String> running = submit(port, "sleeper", "{\"seconds\":2}");
        assertThat(running.statusCode()).as(running.body()).isEqualTo(201);
        acknowledged.add(runId(running));
        await(
                Duration.ofSeconds(20),
                "the tool started",
                () -> lines(marks.resolve("marks")).size() == 1);

        postgres.close();
        HttpResponse<String> refused = submit(port, "mark", "{}");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("5");
        assertThat(refused.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).contains("problem+json"));
        // Met by a security filter (an access token's look-up) before any controller: the same 503.
        HttpResponse<String> tokenLookUp = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/approvals"))
                        .header("Authorization", "Bearer alp_" + "x".repeat(40))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(tokenLookUp.statusCode()).as(tokenLookUp.body()).isEqualTo(503);
        assertThat(tokenLookUp.body()).contains("\"type\":\"urn:airlock:problem:database-unavailable\"");
        assertThat(tokenLookUp.headers().firstValue("Retry-After")).hasValue("5");
        assertThat(http.send(
                                HttpRequest.newBuilder(
                                                URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(503);
        Path spool = work.resolve("data-outage").resolve("spool");
        await(Duration.ofSeconds(30), "the result kept in the spool", () -> {
            try (var files = Files.list(spool)) {
                return files.anyMatch(f -> f.toString().endsWith(".result.json"));
            } catch (IOException e) {
                return false;
            }
        });

        EmbeddedPostgres again = postgresAt(pgData, pgPort);
        try {
            HttpResponse<String> back = org.awaitility.Awaitility.await("recovered without a restart")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> submit(port, "mark", "{}"), response -> response.statusCode() != 503);
            assertThat(back.statusCode()).as(back.body()).isEqualTo(201);
            acknowledged.add(runId(back));
            JdbcClient jdbc = JdbcClient.create(again.getPostgresDatabase());
            await(
                    Duration.ofSeconds(60),
                    "every acknowledged run recorded as ended",
                    () -> acknowledged.stream()
                            .allMatch(id -> jdbc.sql("SELECT state FROM airlock.runs WHERE id = ?")
                                    .param(id)
                                    .query(String.class)
                                    .optional()
                                    .filter(s -> s.equals("COMPLETED") || s.equals("PENDING_APPROVAL"))
                                    .isPresent()));
            assertThat(jdbc.sql("SELECT state FROM airlock.runs WHERE id = ?")
                            .param(acknowledged.get(0))
                            .query(String.class)
                            .single())
                    .isEqualTo("COMPLETED");
            try (var files = Files.list(spool)) {
                assertThat(files.filter(f -> f.toString().endsWith(".result.json"))
                                .count())
                        .isZero();
            }
            assertThat(output.getAll())
                    .as("the jobs say the database is away in a line, not with a scheduler's stack trace")
                    .doesNotContain("Unexpected error occurred in scheduled task");
        } finally {
            instance.close();
            others.remove(instance);
            again.close();
        }
    }
}
