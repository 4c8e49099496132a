package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The mount rules over a tool definition recorded when its run was requested, which may come from
 * an earlier configuration: it runs only if its mounts keep the rules next to today's.
 */
class MountRulesTests {

    private static final Path WORK = Path.of("/var/airlock/work");
    private static final Path DATA = Path.of("/var/airlock/data");

    private static SandboxPolicy writable(String... paths) {
        return new SandboxPolicy(false, List.of(), List.of(paths), 16, 1 << 20, 1 << 20, 16, 1 << 20);
    }

    private static SandboxPolicy readOnly(String... paths) {
        return new SandboxPolicy(false, List.of(paths), List.of(), 16, 1 << 20, 1 << 20, 16, 1 << 20);
    }

    @Test
    void aRecordedWritablePathAboveWhatAToolOfTodayMountsIsRefused() {
        MountRules today =
                MountRules.of(MountRules.mountsOf("today", readOnly("/srv/a/sub"), null), WORK, DATA, List.of());

        assertThat(today.problem(MountRules.mountsOf("recorded", writable("/srv/a"), null), List.of()))
                .startsWith("today.sandbox.read-only-paths[0]: /srv/a/sub lies inside /srv/a");
        assertThat(today.problem(MountRules.mountsOf("recorded", writable("/srv/b"), null), List.of()))
                .isNull();
    }

    @Test
    void aRecordedSecretFileBelowAWritablePathOfTodayIsRefused() {
        MountRules today = MountRules.of(MountRules.mountsOf("today", writable("/srv/t"), null), WORK, DATA, List.of());

        assertThat(today.problem(List.of(), MountRules.secretFilesOf("recorded", Map.of("TOKEN", "file:/srv/t/token"))))
                .startsWith("today.sandbox.writable-paths[0]: /srv/t would let runs change /srv/t/token");
    }

    @Test
    void aRecordedWorkingDirectoryInAirlocksWorkAreaIsRefused() {
        MountRules today = MountRules.of(List.of(), WORK, DATA, List.of());

        assertThat(today.problem(MountRules.mountsOf("recorded", SandboxPolicy.DEFAULTS, WORK.resolve("x")), List.of()))
                .startsWith("recorded.working-dir: /var/airlock/work/x would let runs change /var/airlock/work");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"/proc", "/proc/1", "/sys", "/sys/fs/cgroup", "/dev", "/dev/shm", "/run", "/var/run"})
    void noMountShowsTheHostsProcessesDevicesOrRuntimeDirectory(String path) {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> MountRules.of(MountRules.mountsOf("t", readOnly(path), null), WORK, DATA, List.of()))
                .isInstanceOf(dev.airlock.kernel.config.InvalidConfigurationException.class)
                .hasMessageStartingWith("t.sandbox.read-only-paths[0]: " + path + " would show runs ");
        assertThat(MountRules.of(
                        MountRules.mountsOf("t", readOnly("/srv/data", "/etc", "/run/secrets"), null),
                        WORK,
                        DATA,
                        List.of()))
                .isNotNull();
    }

    @Test
    void anAgentSideSecretSharesItsFileOnlyWithAnotherOfItsTenantsAgentSide() {
        Path file = Path.of("/srv/secrets/shared");
        MountRules.Reserved credential =
                MountRules.secretFile("airlock.tenants.acme.upstreams.sink.auth.token", null, file);
        MountRules.Reserved toolSecret = MountRules.secretFile(
                "airlock.tenants.acme.tools.peek.secrets.T", "airlock.tenants.acme.tools.peek", file);
        // The same tenant's agent side: one token for a tool and an upstream.
        assertThat(MountRules.of(List.of(), WORK, DATA, List.of(credential, toolSecret)))
                .isNotNull();
        // The people's side of the same tenant (its evidence signing key), another tenant's, the platform's.
        for (MountRules.Reserved other : List.of(
                MountRules.secretFile("airlock.tenants.acme.evidence.keys.k1.private-key", null, file),
                MountRules.secretFile("airlock.tenants.globex.upstreams.billing.auth.token", null, file),
                MountRules.secretFile("spring.datasource.password", null, file),
                MountRules.configurationFile("airlock.tenants.acme.agents.bot.key-sha256", file))) {
            for (MountRules.Reserved own : List.of(credential, toolSecret)) {
                assertThatThrownBy(() -> MountRules.of(List.of(), WORK, DATA, List.of(own, other)))
                        .as(own.key() + " with " + other.key())
                        .hasMessageContaining("a tenant's secret file must be its own")
                        .hasMessageContaining(other.key());
            }
        }
    }

    @Test
    void aCredentialMayNameAConfigTreesFileOnlyOfNoSettingOfThePlatformOrAnotherTenant() {
        Path file = Path.of("/run/secrets/tree/some-token");
        MountRules.Reserved credential =
                MountRules.secretFile("airlock.tenants.acme.upstreams.sink.auth.token", null, file);
        assertThat(MountRules.of(
                        List.of(),
                        WORK,
                        DATA,
                        List.of(credential, MountRules.configurationSetting("some-token", file))))
                .as("a token mounted beside the configuration")
                .isNotNull();
        for (String setting : List.of(
                "spring.datasource.password", // also: a setting that takes its value from the file's (${db.password})
                "Spring.Datasource.Password",
                "airlock.tenants.globex.upstreams.billing.auth.token",
                "airlock.tenants.acme.evidence.keys.k1.private-key")) {
            assertThatThrownBy(() -> MountRules.of(
                            List.of(), WORK, DATA, List.of(credential, MountRules.configurationSetting(setting, file))))
                    .as(setting)
                    .hasMessageContaining("a tenant's secret file must be its own");
        }
        MountRules.Reserved toolSecret = MountRules.secretFile(
                "airlock.tenants.acme.tools.peek.secrets.T", "airlock.tenants.acme.tools.peek", file);
        assertThatThrownBy(() -> MountRules.of(
                        List.of(),
                        WORK,
                        DATA,
                        List.of(toolSecret, MountRules.configurationSetting("some-token", file))))
                .as("a tool's secret, handed to every run, never names a configuration file")
                .hasMessageContaining("a tenant's secret file must be its own");
    }

    @Test
    void aRecordedSecretNamingAnotherTenantsFileOfTodayIsRefused() {
        Path file = Path.of("/srv/secrets/globex-token");
        MountRules today = MountRules.of(
                List.of(),
                WORK,
                DATA,
                List.of(MountRules.secretFile("airlock.tenants.globex.upstreams.billing.auth.token", null, file)));
        String owner = "airlock.tenants.acme.tools.peek";
        assertThat(today.problem(List.of(), MountRules.secretFilesOf(owner, Map.of("TOKEN", "file:" + file))))
                .startsWith(owner + ".secrets.TOKEN: ")
                .contains(
                        "airlock.tenants.globex.upstreams.billing.auth.token",
                        "a tenant's secret file must be its own");
        assertThat(today.problem(List.of(), MountRules.secretFilesOf(owner, Map.of("TOKEN", "file:/srv/secrets/own"))))
                .as("a file of its own")
                .isNull();
    }
}
