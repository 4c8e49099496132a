package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.AirlockApplication;
import dev.airlock.gateway.run.RunService;
import dev.airlock.gateway.support.TestSecrets;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.persistence.envelope.RunViews;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.SandboxKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The sandbox setting at start-up: with {@code bubblewrap} and no working bwrap the gateway does
 * not start, and says what to install and which setting to change; with {@code none} it starts,
 * warns, and every run says it had no sandbox.
 */
@ExtendWith(OutputCaptureExtension.class)
class SandboxStartupIntegrationTests {

    @TempDir
    Path dataDir;

    /** Outside the data directory, which no mount may reach anyway. */
    @TempDir
    Path host;

    private ConfigurableApplicationContext start(String... arguments) {
        String[] all = new String[arguments.length + 2];
        all[0] = "--airlock.data-dir=" + dataDir;
        all[1] = "--server.port=0";
        System.arraycopy(arguments, 0, all, 2, arguments.length);
        return new SpringApplicationBuilder(AirlockApplication.class, TestSecrets.class)
                .profiles("test")
                .run(all);
    }

    @Test
    void refusesToStartWhenBubblewrapIsMissing(CapturedOutput output) {
        assertThatThrownBy(() ->
                        start("--airlock.sandbox.bwrap-path=/nonexistent/bwrap").close())
                .rootCause()
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("airlock.sandbox.bwrap-path");
                    assertThat(e.problem())
                            .startsWith("'/nonexistent/bwrap' is not an executable file.")
                            .contains("Install the package 'bubblewrap'", "airlock.sandbox.mode=none");
                });
        assertThat(output.getAll())
                .contains(
                        "APPLICATION FAILED TO START",
                        "Invalid Airlock configuration at 'airlock.sandbox.bwrap-path': '/nonexistent/bwrap' is not an executable file.",
                        "Install the package 'bubblewrap' (apt-get install bubblewrap)");
    }

    /** A directory {@code name} outside the data directory holding globex's upstream credential, {@code billing-token}. */
    /** Starts with {@code arguments} and globex's upstream billing, whose credential is in {@code secrets}. */
    private ConfigurableApplicationContext startWithGlobexBilling(Path secrets, String... arguments) {
        String[] all = new String[arguments.length + 3];
        all[0] = "--airlock.tenants.globex.upstreams.billing.base-url=https://billing.example.test/";
        all[1] = "--airlock.tenants.globex.upstreams.billing.auth.type=bearer";
        all[2] = "--airlock.tenants.globex.upstreams.billing.auth.token=file:" + secrets.resolve("billing-token");
        System.arraycopy(arguments, 0, all, 3, arguments.length);
        return start(all);
    }

    private Path globexCredential(String name) throws java.io.IOException {
        Path secrets = Files.createDirectories(host.resolve(name));
        Files.writeString(secrets.resolve("billing-token"), "globex's upstream credential");
        return secrets;
    }

    @Test
    void refusesToStartWhenAToolWouldMountAnUpstreamsCredentialOrAConfigurationFile() throws Exception {
        Path secrets = globexCredential("secrets");
        assertThatThrownBy(() -> startWithGlobexBilling(
                                secrets,
                                "--airlock.tenants.acme.tools.peek.argv[0]=true",
                                "--airlock.tenants.acme.tools.peek.sandbox.read-only-paths[0]=" + secrets)
                        .close())
                .rootCause()
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("airlock.tenants.acme.tools.peek.sandbox.read-only-paths[0]");
                    assertThat(e.problem())
                            .contains(
                                    "the file a secret is read from",
                                    "airlock.tenants.globex.upstreams.billing.auth.token");
                });

        Path settings = Files.createDirectories(host.resolve("settings"));
        Files.writeString(settings.resolve("extra.yaml"), "airlock.tenants.acme.limits.concurrent-runs: 3\n");
        assertThatThrownBy(() -> start(
                                "--spring.config.additional-location=file:" + settings.resolve("extra.yaml"),
                                "--airlock.tenants.acme.tools.peek.argv[0]=true",
                                "--airlock.tenants.acme.tools.peek.sandbox.read-only-paths[0]=" + settings)
                        .close())
                .rootCause()
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("airlock.tenants.acme.tools.peek.sandbox.read-only-paths[0]");
                    assertThat(e.problem())
                            .contains(settings.resolve("extra.yaml").toString())
                            .containsAnyOf(
                                    "a file Airlock's configuration is read from", "spring.config.additional-location");
                });
    }

    @Test
    void refusesToStartWhenAToolWouldMountAConfigTreeOrReadAnotherTenantsSecret() throws Exception {
        Path tree = Files.createDirectories(host.resolve("tree"));
        Files.writeString(tree.resolve("spring.application.name"), "airlock-from-a-config-tree");
        assertThatThrownBy(() -> start(
                                "--spring.config.import=optional:configtree:" + tree + "/",
                                "--airlock.tenants.acme.tools.peek.argv[0]=true",
                                "--airlock.tenants.acme.tools.peek.sandbox.read-only-paths[0]=" + tree)
                        .close())
                .rootCause()
                .isInstanceOfSatisfying(
                        InvalidConfigurationException.class,
                        e -> assertThat(e.problem())
                                .as("a spring. setting's file, not only airlock.'s")
                                .contains("Airlock's configuration is read from", "spring.application.name"));

        Path secrets = globexCredential("globex-secrets");
        assertThatThrownBy(() -> startWithGlobexBilling(
                                secrets,
                                "--airlock.tenants.acme.tools.peek.argv[0]=true",
                                "--airlock.tenants.acme.tools.peek.secrets.TOKEN=file:"
                                        + secrets.resolve("billing-token"))
                        .close())
                .rootCause()
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("airlock.tenants.acme.tools.peek.secrets.TOKEN");
                    assertThat(e.problem())
                            .contains("airlock.tenants.globex.upstreams.billing.auth.token", "must be its own");
                });
        // An upstream's credential is sent to the upstream: acme's may not be globex's either.
        assertThatThrownBy(() -> startWithGlobexBilling(
                                secrets,
                                "--airlock.tenants.acme.upstreams.sink.base-url=https://sink.example.test/",
                                "--airlock.tenants.acme.upstreams.sink.auth.type=header",
                                "--airlock.tenants.acme.upstreams.sink.auth.header-name=X-Leak",
                                "--airlock.tenants.acme.upstreams.sink.auth.value=file:"
                                        + secrets.resolve("billing-token"))
                        .close())
                .rootCause()
                .isInstanceOfSatisfying(
                        InvalidConfigurationException.class,
                        e -> assertThat(e.key() + " " + e.problem())
                                .as("either of the two may be named first, with the other in its message")
                                .contains(
                                        "airlock.tenants.acme.upstreams.sink.auth.value",
                                        "airlock.tenants.globex.upstreams.billing.auth.token",
                                        "must be its own"));
        // Nor a file the configuration is read from (here a config tree's, a setting of no tenant).
        assertThatThrownBy(() -> start(
                                "--spring.config.import=optional:configtree:" + tree + "/",
                                "--airlock.tenants.acme.upstreams.sink.base-url=https://sink.example.test/",
                                "--airlock.tenants.acme.upstreams.sink.auth.type=bearer",
                                "--airlock.tenants.acme.upstreams.sink.auth.token=file:"
                                        + tree.resolve("spring.application.name"))
                        .close())
                .rootCause()
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("airlock.tenants.acme.upstreams.sink.auth.token");
                    assertThat(e.problem()).contains("Airlock's configuration is read from", "must be its own");
                });

        // A config tree's file of no setting of the platform's (a credential mounted beside the
        // database's password) may be an upstream's credential: the gateway starts.
        Files.writeString(tree.resolve("billing-token"), "token-of-acme");
        start(
                        "--spring.config.import=optional:configtree:" + tree + "/",
                        "--airlock.tenants.acme.upstreams.sink.base-url=https://sink.example.test/",
                        "--airlock.tenants.acme.upstreams.sink.auth.type=bearer",
                        "--airlock.tenants.acme.upstreams.sink.auth.token=file:" + tree.resolve("billing-token"))
                .close();
    }

    @Test
    void aToolMountsItsOwnSecretsDirectoryWhateverItsNameAndRunsWithIt() throws Exception {
        Path own = Files.createDirectories(host.resolve("own"));
        Files.setPosixFilePermissions(own, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(own.resolve("token"), "own-token-value");
        Files.setPosixFilePermissions(
                own.resolve("token"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        for (Path dir = host; dir != null; dir = dir.getParent()) {
            if (!Files.getPosixFilePermissions(dir)
                    .contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
                Files.setPosixFilePermissions(
                        dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
            }
        }
        AgentIdentity agent = new AgentIdentity("acme", "build-bot");
        try (ConfigurableApplicationContext context = start(
                        "--airlock.tenants.acme.tools.own_secret.argv[0]=cat",
                        "--airlock.tenants.acme.tools.own_secret.argv[1]=" + own.resolve("token"),
                        "--airlock.tenants.acme.tools.own_secret.secrets.TOKEN=file:" + own.resolve("token"),
                        "--airlock.tenants.acme.tools.own_secret.sandbox.read-only-paths[0]=" + own);
                var scope = context.getBean(dev.airlock.persistence.scope.Scopes.class)
                        .agent(agent.tenant())
                        .open()) {
            RunService runs = context.getBean(RunService.class);
            RunRecord ended = runs.await(
                    agent,
                    runs.submit(agent, "own_secret", Map.of(), null).run().id(),
                    Duration.ofSeconds(20));
            assertThat(ended.failure())
                    .as("refused at the run: its own secret's directory")
                    .isNull();
            assertThat(ended.exitCode()).isZero();
        }
    }

    @Test
    void runsWithoutASandboxWhenTheModeIsNoneAndSaysSo(CapturedOutput output) {
        AgentIdentity agent = new AgentIdentity("acme", "build-bot");
        try (ConfigurableApplicationContext context = start("--airlock.sandbox.mode=none");
                var scope = context.getBean(dev.airlock.persistence.scope.Scopes.class)
                        .agent(agent.tenant())
                        .open()) {
            RunService runs = context.getBean(RunService.class);
            RunRecord run = runs.submit(agent, "identity", Map.of(), null).run();
            RunRecord ended = runs.await(agent, run.id(), Duration.ofSeconds(20));

            assertThat(ended.sandbox()).isEqualTo(SandboxKind.NONE);
            assertThat(RunViews.process(ended).sandbox()).isEqualTo("none");
            assertThat(output.getAll()).contains("airlock.sandbox.mode is 'none': tools run as the gateway's own user");
            String text =
                    context.getBean(RunViews.class).transcript(ended, dev.airlock.persistence.run.StreamName.STDOUT);
            assertThat(text)
                    .as("the same tool that sees an unprivileged sandbox sees the host")
                    .doesNotContain("Uid:\t65534\t65534\t65534\t65534")
                    .doesNotContain("\nairlock\n");
        }
    }
}
