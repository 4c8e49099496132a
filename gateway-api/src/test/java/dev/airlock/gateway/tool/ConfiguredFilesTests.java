package dev.airlock.gateway.tool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.capture.MountRules;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** Which files of the configuration are reserved against mounts, and for whom. */
class ConfiguredFilesTests {

    @Test
    void everyFileReferenceIsReservedAndOnlyAToolsOrServersOwnSecretsStayItsOwn() {
        StandardEnvironment environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "test",
                        Map.of(
                                "airlock.tenants.acme.tools.git-log.secrets.TOKEN", "file:/srv/secrets/git",
                                "airlock.tenants.acme.mcp-servers.files.secrets.KEY", "file:/srv/secrets/mcp",
                                "airlock.tenants.acme.upstreams.billing.auth.token", "file:${secrets.dir}/billing",
                                "secrets.dir", "/srv/secrets",
                                "airlock.tenants.acme.evidence.keys.k1.private-key", "file:/srv/keys/k1.pem",
                                "airlock.tenants.acme.tools.git-log.env.PLAIN", "file-like but not a reference",
                                "airlock.tenants.acme.upstreams.odd.auth.token", "file:relative/path",
                                "other.setting", "file:/srv/not-airlock")));

        Map<String, MountRules.Reserved> reserved = ConfiguredFiles.of(environment).stream()
                .collect(java.util.stream.Collectors.toMap(MountRules.Reserved::key, r -> r));

        assertThat(reserved)
                .containsOnlyKeys(
                        "airlock.tenants.acme.tools.git-log.secrets.token",
                        "airlock.tenants.acme.mcp-servers.files.secrets.key",
                        "airlock.tenants.acme.upstreams.billing.auth.token",
                        "airlock.tenants.acme.evidence.keys.k1.private-key");
        assertThat(reserved.get("airlock.tenants.acme.tools.git-log.secrets.token")
                        .owner())
                .isEqualTo("airlock.tenants.acme.tools.git-log");
        assertThat(reserved.get("airlock.tenants.acme.mcp-servers.files.secrets.key")
                        .owner())
                .isEqualTo("airlock.tenants.acme.mcp-servers.files");
        assertThat(reserved.get("airlock.tenants.acme.upstreams.billing.auth.token")
                        .owner())
                .isNull();
        assertThat(reserved.get("airlock.tenants.acme.upstreams.billing.auth.token")
                        .path())
                .isEqualTo(Path.of("/srv/secrets/billing"));
        assertThat(reserved.get("airlock.tenants.acme.evidence.keys.k1.private-key")
                        .owner())
                .isNull();
    }
}
