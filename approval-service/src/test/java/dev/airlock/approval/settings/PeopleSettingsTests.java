package dev.airlock.approval.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.approval.people.HumanDirectory;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.SettingsBinder;
import dev.airlock.kernel.config.TenantNames;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The people's side's settings as platform teams write them: defaults, bounds, and what stops the start. */
class PeopleSettingsTests {

    private static PeopleSettings bind(Map<String, String> entries) {
        return SettingsBinder.bind(List.of(new MapConfigurationPropertySource(entries)), PeopleSettings.class);
    }

    @Test
    void theDefaultTokenLifetimeFollowsAShorterMaximum() {
        assertThat(bind(Map.of()).tokens().defaultTtl()).isEqualTo(Duration.ofDays(30));
        assertThat(bind(Map.of("airlock.tokens.max-ttl", "P7D")).tokens().defaultTtl())
                .isEqualTo(Duration.ofDays(7));
        assertThat(bind(Map.of("airlock.tokens.max-ttl", "P7D", "airlock.tokens.default-ttl", "P2D"))
                        .tokens()
                        .defaultTtl())
                .isEqualTo(Duration.ofDays(2));
        assertThatThrownBy(() -> bind(Map.of("airlock.tokens.max-ttl", "P7D", "airlock.tokens.default-ttl", "P8D")))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith("airlock.tokens.default-ttl");
    }

    @Test
    void aTenantThatConfiguresNothingOfThisSideGetsTheDocumentedDefaults() {
        PeopleSettings.Tenant tenant = bind(Map.of("airlock.tenants.acme.agents.bot.key-sha256", "a".repeat(64)))
                .tenant("acme");
        assertThat(tenant.retention())
                .isEqualTo(new PeopleSettings.Retention(
                        Duration.ofDays(7), Duration.ofDays(90), Duration.ofDays(400), Duration.ofDays(400)));
        assertThat(tenant.rawAccess()).isEqualTo(new PeopleSettings.RawAccess(true, Duration.ofMinutes(15)));
        assertThat(tenant.notifications().webhooks()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            zero raw retention          | retention.raw               | PT0S                 | airlock.tenants.acme.retention.raw
            negative transcripts        | retention.transcripts       | -P1D                 | airlock.tenants.acme.retention.transcripts
            zero audit events           | retention.audit-events      | PT0S                 | airlock.tenants.acme.retention.audit-events
            audit events for an hour    | retention.audit-events      | PT23H                | airlock.tenants.acme.retention.audit-events
            a grant longer than a day   | raw-access.grant-ttl        | P2D                  | airlock.tenants.acme.raw-access.grant-ttl
            a grant of no time          | raw-access.grant-ttl        | PT0S                 | airlock.tenants.acme.raw-access.grant-ttl
            a webhook that is no URL    | notifications.webhooks[0]   | hooks.example        | airlock.tenants.acme.notifications.webhooks[0]
            a webhook of another scheme | notifications.webhooks[0]   | file:///etc/passwd   | airlock.tenants.acme.notifications.webhooks[0]
            """)
    void refusesTenantSettingsThatCannotHoldNamingTheKey(String what, String key, String value, String refusedKey) {
        assertThatThrownBy(() -> bind(Map.of("airlock.tenants.acme." + key, value)))
                .as(what)
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e ->
                        assertThat(((InvalidConfigurationException) e).key()).isEqualTo(refusedKey));
    }

    private static HumanDirectory withPassword(String hash) {
        Map<String, String> entries = new HashMap<>(
                Map.of("airlock.users.alice.password", hash, "airlock.users.alice.roles.acme[0]", "APPROVER"));
        return HumanDirectory.from(bind(entries), new TenantNames(java.util.Set.of("acme")));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{noop}alice-password",
                "{sha256}abc",
                "{SHA-256}abc",
                "{MD5}abc",
                "{ldap}abc",
                "alice-password",
                "{bcrypt}"
            })
    void refusesPlainTextAndFastDigestPasswords(String hash) {
        assertThatThrownBy(() -> withPassword(hash))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e ->
                        assertThat(((InvalidConfigurationException) e).key()).isEqualTo("airlock.users.alice.password"))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("alice-password"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{bcrypt}$2a$10$Tf2VLkwmu2PQbcTX1D0tueT92mArQNOAvJqSKU2ixYiRk/VglkKwG",
                "{argon2@SpringSecurity_v5_8}$argon2id$v=19$m=16384,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo",
                "{pbkdf2@SpringSecurity_v5_8}5d923b44a6d129f3ddf3e3c8d29412723dcbde72445e8ef6bf3b508fbf17fa4ed4d6b99ca763d8dc",
                "{scrypt}$e0801$abc$def"
            })
    void acceptsHashingEncoders(String hash) {
        assertThat(withPassword(hash).knows("alice")).isTrue();
    }

    @Test
    void refusesRolesForATenantNobodyConfigured() {
        Map<String, String> entries = Map.of(
                "airlock.users.alice.password",
                "{bcrypt}$2a$10$Tf2VLkwmu2PQbcTX1D0tueT92mArQNOAvJqSKU2ixYiRk/VglkKwG",
                "airlock.users.alice.roles.globex[0]",
                "APPROVER");
        assertThatThrownBy(() -> HumanDirectory.from(bind(entries), new TenantNames(java.util.Set.of("acme"))))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("globex");
    }
}
