package dev.airlock.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.SettingsConfiguration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** A misspelled or unsafe setting stops the start, naming the key; it never fails open. */
class StrictConfigurationTests {

    @Configuration(proxyBeanMethods = false)
    @Import(SettingsConfiguration.class)
    @EnableConfigurationProperties({AgentSettings.class, PeopleSettings.class})
    static class Bound {}

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Bound.class)
            .withPropertyValues(
                    "airlock.tenants.acme.agents.bot.key-sha256=" + "a".repeat(64),
                    "airlock.tenants.acme.tools.deploy.argv[0]=echo",
                    "airlock.tenants.acme.tools.deploy.approval=required");

    @ParameterizedTest
    @ValueSource(
            strings = {
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
                "airlock.mcp.call-waits=PT10S",
                "airlock.mcp.allowed-origin=https://app.example.com",
                "airlock.tenants.acme.tools.deploy.annotations.read-only=true",
                "airlock.unknown=true"
            })
    void anUnknownKeyStopsTheStartNamingTheKey(String setting) {
        String key = setting.substring(0, setting.indexOf('='));
        runner.withPropertyValues(setting).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining(key);
        });
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "airlock.tenants.acme.tools.deploy.approvers=2",
                "airlock.login.max-failures=3",
                "airlock.executor.poll-interval=PT1S",
                "airlock.executor.spool-lease-limit=PT30M",
                "airlock.executor.wait-recheck-interval=PT30S",
                "airlock.approvals.max-text-length=500",
                "airlock.audit.verify=*",
                "airlock.database.unsafe-no-fsync=true",
                "airlock.mcp.enabled=false",
                "airlock.mcp.call-wait=PT20S",
                "airlock.mcp.max-text=5000",
                "airlock.mcp.allowed-origins[0]=https://app.example.com",
                "airlock.tenants.acme.tools.deploy.annotations.destructive-hint=true",
                "airlock.tenants.acme.tools.deploy.annotations.open-world-hint=false"
            })
    void everyDocumentedKeyStillBinds(String setting) {
        runner.withPropertyValues(setting).run(context -> assertThat(context).hasNotFailed());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "airlock.mcp.call-wait=PT0S|airlock.mcp.call-wait",
                "airlock.mcp.call-wait=PT11M|airlock.mcp.call-wait",
                "airlock.mcp.call-wait=PT1.5S|airlock.mcp.call-wait",
                "airlock.mcp.max-text=0|airlock.mcp.max-text",
                "airlock.mcp.allowed-origins[0]=*|airlock.mcp.allowed-origins[0]",
                "airlock.mcp.allowed-origins[0]=https://app.example.com/|airlock.mcp.allowed-origins[0]",
                "airlock.mcp.allowed-origins[0]=app.example.com|airlock.mcp.allowed-origins[0]",
                "airlock.mcp.allowed-origins[0]=https://*.example.com|airlock.mcp.allowed-origins[0]",
                "airlock.mcp.allowed-origins[0]=null|airlock.mcp.allowed-origins[0]"
            })
    void refusesMcpSettingsItCannotHonourNamingTheKey(String settingAndKey) {
        String[] parts = settingAndKey.split("\\|");
        runner.withPropertyValues(parts[0]).run(context -> {
            assertThat(context).hasFailed();
            assertThat(refusal(context.getStartupFailure()).key()).isEqualTo(parts[1]);
        });
    }

    @org.junit.jupiter.api.Test
    void keepsAllowedOriginsAsBrowsersSendThem() {
        runner.withPropertyValues("airlock.mcp.allowed-origins[0]=HTTPS://App.Example.com:8443")
                .run(context -> assertThat(
                                context.getBean(AgentSettings.class).mcp().allowedOrigins())
                        .containsExactly("https://app.example.com:8443"));
        runner.run(context -> {
            AgentSettings.Mcp mcp = context.getBean(AgentSettings.class).mcp();
            assertThat(mcp.enabled()).isTrue();
            assertThat(mcp.callWait()).isEqualTo(java.time.Duration.ofSeconds(50));
            assertThat(mcp.allowedOrigins()).isEmpty();
        });
    }

    /**
     * Names the binder reads as one entry (differing only in case, '-' or '_') would merge: one
     * entry would take the other's roles, secrets or network access where it left them out.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "airlock.users.j-smith.platform-admin=true|airlock.users.jsmith.password={noop}x|airlock.users.jsmith",
                "airlock.users.Alice.password={noop}x|airlock.users.alice.password={noop}y|airlock.users.alice",
                "airlock.tenants.acme.tools.deploy-prod.argv[0]=env|airlock.tenants.acme.tools.deployprod.argv[0]=env"
                        + "|airlock.tenants.acme.tools.deployprod",
                "airlock.tenants.acme.agents.bot.labels.Env=prod|airlock.tenants.acme.agents.bot.labels.env=dev"
                        + "|airlock.tenants.acme.agents.bot.labels.env",
                "airlock.users.j-smith.password={noop}x|airlock.users.jsmith=|airlock.users.jsmith",
                "airlock.tenants.acme.tools.deploy.parameters.Msg.type=string"
                        + "|airlock.tenants.acme.tools.deploy.parameters.msg.type=integer"
                        + "|airlock.tenants.acme.tools.deploy.parameters.msg",
                "airlock.tenants.acme.agents.build_bot.owner=alice|airlock.tenants.acme.agents.buildbot.owner=bob"
                        + "|airlock.tenants.acme.agents.buildbot",
                "airlock.tenants.acme-prod.limits.concurrent-runs=1|airlock.tenants.acmeprod.limits.concurrent-runs=2"
                        + "|airlock.tenants.acmeprod"
            })
    void namesTheBinderWouldMergeStopTheStart(String settingsAndKey) {
        String[] parts = settingsAndKey.split("\\|");
        runner.withPropertyValues(parts[0], parts[1]).run(context -> {
            assertThat(context).hasFailed();
            assertThat(refusal(context.getStartupFailure()).key()).isEqualTo(parts[2]);
            assertThat(context.getStartupFailure()).hasMessageContaining("names the same entry");
        });
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "airlock.console.base-url=localhost:8080",
                "airlock.console.base-url=https://user:pw@airlock.example.com",
                "airlock.console.base-url=ftp://airlock.example.com",
                "airlock.console.base-url=https://airlock example.com",
                "airlock.executor.wait-recheck-interval=PT0.1S",
                "airlock.migrate-only=true"
            })
    void aSettingThatCannotBeHonouredStopsTheStartNamingIt(String setting) {
        runner.withPropertyValues(setting).run(context -> {
            assertThat(context).hasFailed();
            assertThat(refusal(context.getStartupFailure()).key())
                    .isEqualTo(setting.substring(0, setting.indexOf('=')));
        });
        runner.withPropertyValues("airlock.console.base-url=https://airlock.example.com")
                .run(context -> assertThat(context).hasNotFailed());
    }

    /** Spring drops such characters from names: bob+ci would be read as bobci, and merged with it. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "airlock.users.bob+ci.platform-admin=true",
                "airlock.users.bob@ci.password={noop}x",
                "airlock.tenants.acme.agents.bot~2.owner=alice"
            })
    void aNameWithACharacterSpringDropsStopsTheStart(String setting) {
        runner.withPropertyValues(setting, "airlock.users.bobci.password={noop}y")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(refusal(context.getStartupFailure()).key())
                            .isEqualTo(setting.substring(0, setting.indexOf('=')));
                    assertThat(context.getStartupFailure()).hasMessageContaining("which Spring drops from names");
                });
    }

    @org.junit.jupiter.api.Test
    void aNameInBracketsMayHoldAnyCharacter() {
        runner.withPropertyValues("airlock.tenants.acme.tools.deploy.env[X+Y]=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(deployEnv(context)).containsKey("X+Y");
                });
    }

    /**
     * Plain values too: unbracketed, the binder makes HTTP_PROXY and http_proxy two keys with one
     * value (whichever it read first); in brackets each keeps its own.
     */
    @org.junit.jupiter.api.Test
    void variablesThatDifferOnlyInCaseAreWrittenInBrackets() {
        runner.withPropertyValues(
                        "airlock.tenants.acme.tools.deploy.env.HTTP_PROXY=http://good.test:3128",
                        "airlock.tenants.acme.tools.deploy.env.http_proxy=http://other.test:3128")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(refusal(context.getStartupFailure()).key())
                            .isEqualTo("airlock.tenants.acme.tools.deploy.env.http_proxy");
                    assertThat(context.getStartupFailure()).hasMessageContaining("[http_proxy]");
                });
        runner.withPropertyValues(
                        "airlock.tenants.acme.tools.deploy.env[HTTP_PROXY]=http://good.test:3128",
                        "airlock.tenants.acme.tools.deploy.env[http_proxy]=http://other.test:3128")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(deployEnv(context))
                            .containsEntry("HTTP_PROXY", "http://good.test:3128")
                            .containsEntry("http_proxy", "http://other.test:3128");
                });
    }

    @org.junit.jupiter.api.Test
    void aSettingWrittenInCamelCaseStillBinds() {
        runner.withPropertyValues("airlock.tenants.acme.tools.deploy.maxRetainedBytes=1MB")
                .run(context -> assertThat(context).hasNotFailed());
    }

    private static java.util.Map<String, String> deployEnv(
            org.springframework.boot.test.context.assertj.AssertableApplicationContext context) {
        return context.getBean(AgentSettings.class)
                .tenant("acme")
                .tools()
                .get("deploy")
                .env();
    }

    /** The refusal the start reports, whether a record's own check or one of its constraints made it. */
    static InvalidConfigurationException refusal(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidConfigurationException refused) {
                return refused;
            }
            if (cause
                    instanceof
                    org.springframework.boot.context.properties.bind.validation.BindValidationException invalid) {
                return InvalidConfigurationException.of(invalid);
            }
        }
        throw new AssertionError("the start did not refuse a setting", failure);
    }
}
