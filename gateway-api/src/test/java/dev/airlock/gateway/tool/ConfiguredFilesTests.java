package dev.airlock.gateway.tool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.capture.MountRules;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** Which files of the configuration are reserved against mounts, and for whom. */
class ConfiguredFilesTests {

    /** An environment of {@code settings} (and the system's). */
    private static StandardEnvironment environment(Map<String, Object> settings) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", settings));
        return environment;
    }

    @Test
    void everyFileReferenceIsReservedAndOnlyAToolsOrServersOwnSecretsStayItsOwn() {
        StandardEnvironment environment = environment(Map.of(
                "airlock.tenants.acme.tools.git-log.secrets.TOKEN", "file:/srv/secrets/git",
                "airlock.tenants.acme.tools.git_log.secrets.OTHER", "file:/srv/secrets/git2",
                "airlock.tenants.acme.mcp-servers.files.secrets.KEY", "file:/srv/secrets/mcp",
                "airlock.tenants.acme.upstreams.billing.auth.token", "file:${secrets.dir}/billing",
                "secrets.dir", "/srv/secrets",
                "airlock.tenants.acme.evidence.keys.k1.private-key", "file:/srv/keys/k1.pem",
                "airlock.tenants.acme.upstreams.odd.auth.token", "file:/srv//keys/./odd/../k2.pem",
                "spring.datasource.password", "file:/run/secrets/db-password",
                "airlock.tenants.acme.tools.git-log.env.PLAIN", "file-like but not a reference",
                "other.setting", "plain:/srv/not-a-file-reference"));

        Map<String, MountRules.Reserved> reserved = ConfiguredFiles.of(environment).stream()
                .filter(r -> !r.key().startsWith("java.") && !r.key().startsWith("sun."))
                .collect(Collectors.toMap(MountRules.Reserved::key, r -> r));

        assertThat(reserved)
                .containsOnlyKeys(
                        "airlock.tenants.acme.tools.git-log.secrets.TOKEN",
                        "airlock.tenants.acme.tools.git_log.secrets.OTHER",
                        "airlock.tenants.acme.mcp-servers.files.secrets.KEY",
                        "airlock.tenants.acme.upstreams.billing.auth.token",
                        "airlock.tenants.acme.upstreams.odd.auth.token",
                        "airlock.tenants.acme.evidence.keys.k1.private-key",
                        "spring.datasource.password");
        assertThat(reserved.get("airlock.tenants.acme.tools.git-log.secrets.TOKEN")
                        .owner())
                .isEqualTo("airlock.tenants.acme.tools.git-log");
        assertThat(reserved.get("airlock.tenants.acme.tools.git_log.secrets.OTHER")
                        .owner())
                .as("keyed with the tool's name as written")
                .isEqualTo("airlock.tenants.acme.tools.git_log");
        assertThat(reserved.get("airlock.tenants.acme.mcp-servers.files.secrets.KEY")
                        .owner())
                .isEqualTo("airlock.tenants.acme.mcp-servers.files");
        assertThat(reserved.get("airlock.tenants.acme.upstreams.billing.auth.token")
                        .owner())
                .isNull();
        assertThat(reserved.get("airlock.tenants.acme.upstreams.billing.auth.token")
                        .path())
                .isEqualTo(Path.of("/srv/secrets/billing"));
        assertThat(reserved.get("airlock.tenants.acme.upstreams.odd.auth.token").path())
                .as("however it is spelt")
                .isEqualTo(Path.of("/srv/keys/k2.pem"));
        assertThat(reserved.get("airlock.tenants.acme.evidence.keys.k1.private-key")
                        .owner())
                .isNull();
        assertThat(reserved.get("spring.datasource.password").owner()).isNull();
    }

    @Test
    void aTenantsSettingIsKeyedAsDocumentedHoweverItIsSpelt() {
        StandardEnvironment environment = environment(Map.of(
                "Airlock.Tenants.acme.MCP_Servers.srv.Auth.token", "file:/srv/secrets/srv",
                "airlock.tenants.acme.upstreams.Billing.AUTH.value", "file:/srv/secrets/billing"));
        assertThat(ConfiguredFiles.of(environment).stream()
                        .map(MountRules.Reserved::key)
                        .filter(k -> k.startsWith("airlock.")))
                .as("the words Airlock defines in their documented form, the tenant's names as written")
                .containsExactlyInAnyOrder(
                        "airlock.tenants.acme.mcp-servers.srv.auth.token",
                        "airlock.tenants.acme.upstreams.Billing.auth.value");
    }

    @Test
    void aConfigTreesFileIsAlsoTheFileOfEverySettingThatTakesItsValue(@org.junit.jupiter.api.io.TempDir Path tree)
            throws Exception {
        java.nio.file.Files.writeString(tree.resolve("db.password"), "secret");
        java.nio.file.Files.writeString(tree.resolve("billing-token"), "token");
        StandardEnvironment environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .addFirst(new org.springframework.boot.env.ConfigTreePropertySource("tree", tree));
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource("test", Map.of("spring.datasource.password", "${db.password}")));
        Path real = tree.toRealPath();
        Map<String, Path> settings = ConfiguredFiles.of(environment).stream()
                .filter(r -> r.path().startsWith(real))
                .collect(Collectors.toMap(MountRules.Reserved::key, MountRules.Reserved::path));
        assertThat(settings)
                .containsOnly(
                        Map.entry("db.password", real.resolve("db.password")),
                        Map.entry("spring.datasource.password", real.resolve("db.password")),
                        Map.entry("billing-token", real.resolve("billing-token")));
    }
}
