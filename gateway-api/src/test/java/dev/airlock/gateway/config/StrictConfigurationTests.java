package dev.airlock.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.human.HumanDirectory;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** A misspelled or unsafe setting stops the start, naming the key; it never fails open. */
class StrictConfigurationTests {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(AirlockProperties.class)
    static class Bound {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Bound.class)
            .withPropertyValues("airlock.tenants.acme.agents.bot.key-sha256=" + "a".repeat(64),
                    "airlock.tenants.acme.tools.deploy.argv[0]=echo",
                    "airlock.tenants.acme.tools.deploy.approval=required");

    @ParameterizedTest
    @ValueSource(strings = {
            "airlock.tenants.acme.tools.deploy.aproval=required",
            "airlock.tenants.acme.tools.deploy.parameters.x.patern=[a-z]+",
            "airlock.tenants.acme.agents.bot.onwer=alice",
            "airlock.tenants.acme.limit.concurrent-runs=1",
            "airlock.tenants.acme.limits.concurent-runs=1",
            "airlock.tenants.acme.retention.raws=P1D",
            "airlock.tenants.acme.raw-access.second-persons=false",
            "airlock.users.alice.role.acme=APPROVER",
            "airlock.capture.max-waits=PT1S",
            "airlock.login.max-failure=3",
            "airlock.tokens.max-ttls=P1D",
            "airlock.approval.expiry-interval=PT1S",
            "airlock.unknown=true"})
    void anUnknownKeyStopsTheStartNamingTheKey(String setting) {
        String key = setting.substring(0, setting.indexOf('='));
        runner.withPropertyValues(setting).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(key);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"airlock.tenants.acme.tools.deploy.approvers=2", "airlock.login.max-failures=3",
            "airlock.executor.poll-interval=PT1S", "airlock.approvals.max-text-length=500", "airlock.audit.verify=*",
            "airlock.database.unsafe-no-fsync=true"})
    void everyDocumentedKeyStillBinds(String setting) {
        runner.withPropertyValues(setting).run(context -> assertThat(context).hasNotFailed());
    }

    private static AirlockProperties withPassword(String hash) {
        return new Binder(new MapConfigurationPropertySource(Map.of(
                "airlock.tenants.acme.agents.bot.key-sha256", "a".repeat(64),
                "airlock.users.alice.password", hash,
                "airlock.users.alice.roles.acme[0]", "APPROVER")))
                .bind("airlock", AirlockProperties.class).get();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{noop}alice-password", "{sha256}abc", "{SHA-256}abc", "{MD5}abc", "{ldap}abc", "alice-password",
            "{bcrypt}"})
    void refusesPlainTextAndFastDigestPasswords(String hash) {
        assertThatThrownBy(() -> HumanDirectory.from(withPassword(hash)))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).key()).isEqualTo("airlock.users.alice.password"))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("alice-password"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{bcrypt}$2a$10$Tf2VLkwmu2PQbcTX1D0tueT92mArQNOAvJqSKU2ixYiRk/VglkKwG",
            "{argon2@SpringSecurity_v5_8}$argon2id$v=19$m=16384,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo",
            "{pbkdf2@SpringSecurity_v5_8}5d923b44a6d129f3ddf3e3c8d29412723dcbde72445e8ef6bf3b508fbf17fa4ed4d6b99ca763d8dc",
            "{scrypt}$e0801$abc$def"})
    void acceptsHashingEncoders(String hash) {
        assertThat(HumanDirectory.from(withPassword(hash)).knows("alice")).isTrue();
    }
}
