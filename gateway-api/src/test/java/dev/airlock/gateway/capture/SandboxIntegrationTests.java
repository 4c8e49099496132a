package dev.airlock.gateway.capture;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static dev.airlock.gateway.support.AgentApi.GLOBEX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.HostProcesses;
import dev.airlock.gateway.support.HostProcesses.HostProcess;
import dev.airlock.gateway.support.TestSecrets;
import dev.airlock.gateway.support.ToolInputs;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.digest.Sha256;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;

/**
 * Each run in its own sandbox, tried as an attacker would try it with ordinary tools: what a tool
 * can see of the gateway, of other tenants' runs and of the host, what it can write, whom it can
 * reach, who it is, and what a fork storm or a memory hog does. Every test here fails when tools
 * run without the sandbox.
 */
@AirlockIntegrationTest
class SandboxIntegrationTests {

    private static final Duration SEEN = Duration.ofSeconds(15);

    @Autowired
    MockMvcTester mvc;

    @Autowired
    AirlockProperties properties;

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase jdbc;

    AgentApi api;

    @BeforeEach
    void setUp() {
        api = new AgentApi(mvc);
        ToolInputs.directory("sandbox"); // the directory the hostile tool mounts must exist when it runs
    }

    private static String marker(String runId) {
        return ProcessSpec.RUN_ID_VARIABLE + "=" + runId;
    }

    private String start(String key, String tool, String arguments) {
        AgentApi.Response started =
                api.post(key, "/api/v1/runs", "{\"tool\":\"" + tool + "\",\"arguments\":" + arguments + "}");
        assertThat(started.status()).isEqualTo(201);
        return started.text("runId");
    }

    private JsonNode run(String tool, String arguments) {
        JsonNode run = api.run(ACME, tool, arguments).body();
        assertThat(run.path("process").path("sandbox").asString()).isEqualTo("bubblewrap");
        return run;
    }

    private static String stdout(JsonNode run) {
        return run.path("stdout").path("text").asString();
    }

    @Test
    void anotherTenantsSecretAndTheGatewaysEnvironmentAreNotInAnythingAToolReadsInProc() throws Exception {
        String holder = start(GLOBEX, "hold-secret", "{}");
        try {
            HostProcesses.awaitWithEnvironment(marker(holder), HostProcesses.sleeping("30"), SEEN);

            JsonNode run = run("proc-environ", "{}");

            Set<String> seen = stdout(run).lines().collect(Collectors.toSet());
            assertThat(seen)
                    .as("the tool read its own environment")
                    .contains(marker(run.path("runId").asString()));
            assertThat(run.toString()).doesNotContain(TestSecrets.GLOBEX_TOKEN);
            Set<String> gateway = System.getenv().entrySet().stream()
                    .filter(e -> !e.getKey().equals("PATH"))
                    .map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.toSet());
            assertThat(gateway).as("the gateway's own environment").isNotEmpty();
            assertThat(seen).doesNotContainAnyElementsOf(gateway);
        } finally {
            api.post(GLOBEX, "/api/v1/runs/" + holder + "/cancel", "");
        }
    }

    @Test
    void aToolSeesOnlyTheProcessesOfItsOwnRun() {
        List<String> names = stdout(run("processes", "{}")).lines().toList();
        assertThat(names)
                .isNotEmpty()
                .allMatch(name -> Set.of("bwrap", "sh", "cat").contains(name), "is bwrap, sh or cat");
        assertThat(names).hasSizeLessThanOrEqualTo(4);
    }

    @Test
    void aToolCannotReadHostFilesTheGatewaysDataOrItsConfiguration() throws Exception {
        Path hostFile = Files.createDirectories(Path.of(System.getProperty("user.dir"), "target", "host-only"))
                .resolve(UUID.randomUUID() + ".txt")
                .toAbsolutePath();
        Files.writeString(hostFile, "host-only-content\n");
        Path pgVersion = properties
                .dataDir()
                .toAbsolutePath()
                .normalize()
                .resolve("postgres")
                .resolve("PG_VERSION");
        Path configuration = Path.of(System.getProperty("user.dir"), "target", "test-classes", "application-test.yaml")
                .toAbsolutePath()
                .normalize();
        assertThat(pgVersion).as("the gateway's data directory on the host").exists();
        assertThat(configuration).exists();

        for (Path hidden :
                List.of(hostFile, pgVersion, configuration, Path.of("/etc/shadow"), Path.of("/root/.bashrc"))) {
            JsonNode run = run("hostile", "{\"file\":\"" + hidden + "\"}");
            assertThat(stdout(run)).as(hidden.toString()).isEmpty();
            assertThat(run.path("process").path("exitCode").asInt())
                    .as(hidden.toString())
                    .isEqualTo(1);
            assertThat(run.path("stderr").path("text").asString())
                    .as(hidden.toString())
                    .contains("No such file or directory");
        }
        assertThat(stdout(run("hostile", "{\"file\":\"/etc/passwd\"}")))
                .isEqualTo("nobody:x:65534:65534:Airlock sandbox:/nonexistent:/usr/sbin/nologin\n");
    }

    @Test
    void aToolCannotWriteOutsideItsWorkingDirectory() throws Exception {
        String name = "airlock-escape-" + UUID.randomUUID();
        Path inTarget = Path.of(System.getProperty("user.dir"), "target", name).toAbsolutePath();
        Path inTmp = Path.of("/tmp", name);
        Path inUsr = Path.of("/usr", name);
        try {
            assertThat(stdout(run("write-file", "{\"path\":\"" + inTarget + "\"}")))
                    .isEqualTo("refused\n");
            assertThat(stdout(run("write-file", "{\"path\":\"" + inUsr + "\"}")))
                    .isEqualTo("refused\n");
            assertThat(stdout(run("write-file", "{\"path\":\"" + inTmp + "\"}")))
                    .as("its own private /tmp")
                    .isEqualTo("written\n");
            assertThat(inTarget).doesNotExist();
            assertThat(inUsr).doesNotExist();
            assertThat(inTmp).as("the host's /tmp").doesNotExist();
        } finally {
            Files.deleteIfExists(inTarget);
            Files.deleteIfExists(inUsr);
            Files.deleteIfExists(inTmp);
        }
    }

    @Test
    void aToolRunsAsAnUnprivilegedUserWithoutCapabilitiesAndGoesFirstWhenMemoryRunsOut() {
        assertThat(stdout(run("identity", "{}")).lines().toList())
                .containsExactly(
                        "Uid:\t65534\t65534\t65534\t65534",
                        "Gid:\t65534\t65534\t65534\t65534",
                        "Groups:\t ",
                        "CapInh:\t0000000000000000",
                        "CapPrm:\t0000000000000000",
                        "CapEff:\t0000000000000000",
                        "CapBnd:\t0000000000000000",
                        "CapAmb:\t0000000000000000",
                        "NoNewPrivs:\t1",
                        "1000",
                        "airlock");
    }

    @Test
    void aToolHasNoNetworkUnlessItsSandboxSharesTheHosts() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(10_000);
            String port = "{\"port\":" + server.getLocalPort() + "}";

            JsonNode isolated = run("connect", port);
            assertThat(stdout(isolated)).isEqualTo("refused\n");
            assertThat(isolated.path("stderr").path("text").asString()).contains("Connection refused");

            CompletableFuture<Boolean> accepted = CompletableFuture.supplyAsync(() -> {
                try (Socket socket = server.accept()) {
                    return socket.isConnected();
                } catch (SocketTimeoutException e) {
                    return false;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertThat(stdout(run("connect-networked", port))).isEqualTo("connected\n");
            assertThat(accepted.get(20, TimeUnit.SECONDS))
                    .as("the host's listener saw the connection")
                    .isTrue();
        }
    }

    @Test
    void aSecondRunDoesNotSeeTheFirstRunsWorkingDirectory() throws Exception {
        String first = start(ACME, "leave-a-note", "{}");
        try {
            List<HostProcess> processes =
                    HostProcesses.awaitWithEnvironment(marker(first), HostProcesses.sleeping("30"), SEEN);
            HostProcess sleeper = processes.stream()
                    .filter(p -> p.comm().equals("sleep"))
                    .findFirst()
                    .orElseThrow();
            Path workingDir = Files.readSymbolicLink(Path.of("/proc", Long.toString(sleeper.pid()), "cwd"));
            Path note = workingDir.resolve("note");
            assertThat(note).as("the first run's note, seen from the host").hasContent("note-of-the-first-run");

            JsonNode reading = run("hostile", "{\"file\":\"" + note + "\"}");
            assertThat(stdout(reading)).isEmpty();
            assertThat(reading.path("stderr").path("text").asString()).contains("No such file or directory");
            List<String> tmp = stdout(run("list-tmp", "{}")).lines().toList();
            assertThat(tmp)
                    .contains(".", "..")
                    .doesNotContain(workingDir.getFileName().toString())
                    .hasSizeLessThanOrEqualTo(3);
        } finally {
            api.post(ACME, "/api/v1/runs/" + first + "/cancel", "");
        }
    }

    @Test
    void theProcessLimitHoldsAgainstAForkStormAndOtherRunsGoOn() throws Exception {
        String storm = start(ACME, "fork-storm", "{}");
        int most = 0;
        List<HostProcess> seen = List.of();
        long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() < until) {
            List<HostProcess> now = HostProcesses.withEnvironment(marker(storm));
            if (now.size() >= most) {
                most = now.size();
                seen = now;
            }
            Thread.sleep(50); // sampling for a fixed time, not waiting for a condition
        }
        JsonNode meanwhile = run("echo", "{\"message\":\"still here\"}");
        JsonNode run = api.get(ACME, "/api/v1/runs/" + storm + "?wait=PT20S").body();

        assertThat(stdout(meanwhile)).isEqualTo("still here\n");
        // 32 processes in the run's namespaces (its init included) and bubblewrap's own on the host.
        assertThat(most).as("processes of the run at once").isBetween(30, 33);
        assertThat(run.path("state").asString()).isEqualTo("TIMED_OUT");
        assertThat(HostProcesses.stillAlive(seen)).isEmpty();
    }

    @Test
    void aMemoryHogStopsAtItsLimit() {
        JsonNode run = run("memory-hog", "{}");
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(run.path("process").path("exitCode").asInt()).isNotZero();
        assertThat(stdout(run)).isEmpty();
        assertThat(run.path("stderr").path("text").asString()).contains("out of memory");
    }

    @Test
    void aSharedMappingCannotGoPastTheMemoryLimitEither() {
        JsonNode run = run("shared-memory-hog", "{}");
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(run.path("process").path("exitCode").asInt()).isNotZero();
        assertThat(stdout(run)).doesNotContain("mapped");
        assertThat(run.path("stderr").path("text").asString()).contains("Cannot allocate memory");
    }

    @Test
    void readsAFileSecretWhenTheRunStartsAndNamesTheFileWhenItIsGone() throws Exception {
        Path file = Path.of(System.getProperty("user.dir"), "target", "test-secrets", "file-token")
                .toAbsolutePath();
        Files.createDirectories(file.getParent());
        try {
            Files.writeString(file, "file-secret-one\n");
            JsonNode first = run("file-secret", "{}");
            assertThat(stdout(first)).isEqualTo("token=[REDACTED:FILE_TOKEN]\n");
            assertThat(first.path("stdout").path("sha256").asString())
                    .isEqualTo(Sha256.hex("token=[REDACTED:FILE_TOKEN]\n"));

            Files.writeString(file, "file-secret-second");
            JsonNode second = api.run(ACME, "file-secret", "{}").body();
            assertThat(second.path("stdout").path("observedBytes").asLong())
                    .as("read again when the next run starts: the new value's length")
                    .isEqualTo("token=file-secret-second\n".length());
            assertThat(stdout(second)).as("and redacted").isEqualTo("token=[REDACTED:FILE_TOKEN]\n");

            Files.delete(file);
            JsonNode failed = api.run(ACME, "file-secret", "{}").body();
            assertThat(failed.path("state").asString()).isEqualTo("FAILED");
            assertThat(failed.path("process").path("termination").asString()).isEqualTo("SPAWN_FAILED");
            assertThat(failed.path("process").path("failure").asString())
                    .isEqualTo("secret FILE_TOKEN is not available (file " + file + " does not exist)");
            assertThat(failed.toString()).doesNotContain("file-secret-one", "file-secret-second");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void recordsTheSandboxInTheRunStartedAuditEvent() {
        String runId = run("echo", "{\"message\":\"audited\"}").path("runId").asString();
        String details = jdbc.sql(
                        "SELECT details FROM airlock.audit_events WHERE run_id = :run AND type = 'run.started'")
                .param("run", UUID.fromString(runId))
                .query(String.class)
                .single();
        assertThat(details).contains("\"sandbox\":\"bubblewrap\"");
    }
}
