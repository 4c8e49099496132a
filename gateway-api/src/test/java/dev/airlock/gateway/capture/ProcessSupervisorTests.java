package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.Sha256;
import dev.airlock.persistence.run.Termination;
import dev.airlock.sanitizer.SecretRedactor;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The supervisor on real processes, without Spring or a database. */
class ProcessSupervisorTests {

    private final ProcessSupervisor supervisor = new ProcessSupervisor(Clock.systemUTC(), Duration.ofMillis(500));

    private static ProcessSpec spec(UUID runId, List<String> argv, Duration timeout, long retained, long observed,
            Map<String, String> secrets) {
        Map<String, String> env = new java.util.HashMap<>(secrets);
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        return new ProcessSpec(runId, "test", argv, null, env, timeout, retained, observed, SecretRedactor.of(secrets));
    }

    private CaptureResult run(String script) {
        return supervisor.run(spec(UUID.randomUUID(), List.of("sh", "-c", script), Duration.ofSeconds(20), 1 << 20, 1 << 24,
                Map.of()), new Cancellation());
    }

    @Test
    void givesTheChildOnlyTheConfiguredEnvironmentAndAnEmptyStandardInput() {
        UUID runId = UUID.randomUUID();
        CaptureResult result = supervisor.run(spec(runId, List.of("sh", "-c", "env | sort; cat; echo stdin-done"),
                Duration.ofSeconds(20), 1 << 20, 1 << 24, Map.of()), new Cancellation());
        String out = result.stdout().text();
        assertThat(out).contains("PATH=/usr/local/bin:/usr/bin:/bin", "AIRLOCK_RUN_ID=" + runId, "stdin-done");
        assertThat(out.lines().filter(l -> l.contains("=") && !l.startsWith("PWD=") && !l.startsWith("SHLVL=")
                && !l.startsWith("_=")).toList()).hasSize(2);
    }

    @Test
    void hashesEveryObservedByteButKeepsOnlyTheRetainedPrefix() {
        CaptureResult result = supervisor.run(spec(UUID.randomUUID(), List.of("seq", "100000"), Duration.ofSeconds(20), 1000,
                1 << 24, Map.of()), new Cancellation());
        StringBuilder expected = new StringBuilder();
        for (int i = 1; i <= 100000; i++) {
            expected.append(i).append('\n');
        }
        byte[] all = expected.toString().getBytes(StandardCharsets.US_ASCII);
        assertThat(result.stdout().observedBytes()).isEqualTo(all.length);
        assertThat(result.stdout().sha256()).isEqualTo(Sha256.hex(all));
        assertThat(result.stdout().retainedBytes()).isEqualTo(1000);
        assertThat(result.stdout().raw()).hasSize(1000);
        assertThat(result.stdout().truncated()).isTrue();
        assertThat(result.stdout().eof()).isTrue();
        assertThat(result.stdout().text()).startsWith("1\n2\n3\n").hasSize(1000);
    }

    @Test
    void killsTheWholeTreeOnTimeout() throws Exception {
        UUID runId = UUID.randomUUID();
        CaptureResult result = supervisor.run(spec(runId, List.of("sh", "-c", "sleep 60 & sleep 60 & wait"),
                Duration.ofMillis(500), 1 << 20, 1 << 24, Map.of()), new Cancellation());
        assertThat(result.termination()).isEqualTo(Termination.TIMEOUT);
        assertThat(result.exitCode()).isNull();
        assertThat(ProcessTree.killMarked(ProcessSpec.RUN_ID_VARIABLE + "=" + runId)).isZero();
    }

    @Test
    void killsAGrandchildThatKeepsThePipeOpen() {
        UUID runId = UUID.randomUUID();
        CaptureResult result = supervisor.run(spec(runId, List.of("sh", "-c", "sleep 60 & echo started"),
                Duration.ofSeconds(20), 1 << 20, 1 << 24, Map.of()), new Cancellation());
        assertThat(result.termination()).isEqualTo(Termination.EXITED);
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout().text()).isEqualTo("started\n");
        assertThat(result.stdout().eof()).isTrue();
        assertThat(Duration.between(result.startedAt(), result.endedAt())).isLessThan(Duration.ofSeconds(20));
        assertThat(ProcessTree.killMarked(ProcessSpec.RUN_ID_VARIABLE + "=" + runId)).isZero();
    }

    @Test
    void stopsAStreamPastItsObservedLimit() {
        CaptureResult result = supervisor.run(spec(UUID.randomUUID(), List.of("yes"), Duration.ofSeconds(20), 4096,
                256 * 1024, Map.of()), new Cancellation());
        assertThat(result.termination()).isEqualTo(Termination.OUTPUT_LIMIT);
        assertThat(result.stdout().observedBytes()).isGreaterThan(256 * 1024);
        assertThat(result.stdout().retainedBytes()).isEqualTo(4096);
    }

    @Test
    void reportsSpawnFailureWithoutThrowing() {
        CaptureResult result = supervisor.run(spec(UUID.randomUUID(), List.of("/no/such/program"), Duration.ofSeconds(5),
                1024, 1024, Map.of()), new Cancellation());
        assertThat(result.termination()).isEqualTo(Termination.SPAWN_FAILED);
        assertThat(result.failure()).startsWith("cannot start '/no/such/program'");
    }

    @Test
    void cancelsARunningProcess() throws Exception {
        Cancellation cancellation = new Cancellation();
        CompletableFuture<CaptureResult> result = CompletableFuture.supplyAsync(() -> supervisor.run(
                spec(UUID.randomUUID(), List.of("sh", "-c", "echo begun; sleep 60"), Duration.ofSeconds(60), 1024, 1 << 20,
                        Map.of()), cancellation));
        Thread.sleep(300);
        cancellation.cancel();
        CaptureResult ended = result.get(20, TimeUnit.SECONDS);
        assertThat(ended.termination()).isEqualTo(Termination.CANCELLED);
        assertThat(ended.exitCode()).isNull();
    }

    @Test
    void redactsASecretWrittenInPiecesAcrossReads() {
        Map<String, String> secrets = Map.of("TOKEN", "s3cr3t-VALUE-1234");
        CaptureResult result = supervisor.run(spec(UUID.randomUUID(),
                List.of("sh", "-c", "printf 'a s3cr3t-'; sleep 0.3; printf 'VALUE'; sleep 0.3; printf '%s\\n' '-1234 b'; echo \"$TOKEN\" >&2"),
                Duration.ofSeconds(20), 1 << 20, 1 << 24, secrets), new Cancellation());
        assertThat(result.stdout().text()).isEqualTo("a [REDACTED:TOKEN] b\n");
        assertThat(result.stderr().text()).isEqualTo("[REDACTED:TOKEN]\n");
        assertThat(result.stdout().redactions()).isEqualTo(1);
        // Since raw artifacts are redacted too (README, Security notes), the raw bytes hold no secret either.
        assertThat(new String(result.stdout().raw(), StandardCharsets.UTF_8)).isEqualTo("a [REDACTED:TOKEN] b\n")
                .doesNotContain("s3cr3t-VALUE-1234");
    }

    @Test
    void keepsStdoutAndStderrApart() {
        CaptureResult result = run("echo one; echo two >&2; echo three");
        assertThat(result.stdout().text()).isEqualTo("one\nthree\n");
        assertThat(result.stderr().text()).isEqualTo("two\n");
    }
}
