package dev.airlock.gateway.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.config.AirlockProperties;
import dev.airlock.gateway.config.InvalidConfigurationException;
import dev.airlock.gateway.problem.InvalidRequest;
import dev.airlock.gateway.tenant.AgentDirectory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Configuration as platform teams write it, bound by Spring Boot and compiled into tools. */
class ToolCompilerTests {

    private static final String TOOL = "airlock.tenants.acme.tools.git-log.";

    private static AirlockProperties bind(Map<String, String> entries) {
        Map<String, String> all = new HashMap<>(Map.of(
                TOOL + "argv[0]", "git",
                TOOL + "argv[1]", "-C",
                TOOL + "argv[2]", "{repo}",
                TOOL + "argv[3]", "log",
                TOOL + "argv[4]", "-n",
                TOOL + "argv[5]", "{count}",
                TOOL + "parameters.repo.pattern", "[A-Za-z0-9_./-]+",
                TOOL + "parameters.count.type", "integer",
                TOOL + "parameters.count.min", "1",
                TOOL + "parameters.count.max", "100"));
        all.putAll(entries);
        all.values().removeIf(String::isEmpty);
        return new Binder(new MapConfigurationPropertySource(all)).bind("airlock", AirlockProperties.class).get();
    }

    @Test
    void rendersEachParameterAsOneWholeArgument() {
        Tool tool = ToolCompiler.compile(bind(Map.of(TOOL + "parameters.repo.pattern", ".+"))).find("acme", "git-log").orElseThrow();
        ToolArguments args = ToolArguments.check(tool, Map.of("repo", "src/app; rm -rf /", "count", 5));
        assertThat(args.argv()).isEqualTo(List.of("git", "-C", "src/app; rm -rf /", "log", "-n", "5"));
    }

    @Test
    void splicesOnlyWhereTheTemplateSaysSo() {
        Tool tool = ToolCompiler.compile(bind(Map.of(TOOL + "argv[4]", "--max-count={count}", TOOL + "argv[5]", "{{literal}}")))
                .find("acme", "git-log").orElseThrow();
        assertThat(ToolArguments.check(tool, Map.of("repo", "r", "count", 7)).argv())
                .isEqualTo(List.of("git", "-C", "r", "log", "--max-count=7", "{literal}"));
    }

    @Test
    void fillsDefaultsAndReportsEveryBadArgument() {
        Tool tool = ToolCompiler.compile(bind(Map.of(TOOL + "parameters.count.default", "10"))).find("acme", "git-log").orElseThrow();
        assertThat(ToolArguments.check(tool, Map.of("repo", "r")).argv()).endsWith("10");
        assertThatThrownBy(() -> ToolArguments.check(tool, Map.of("repo", "a b", "count", 101L, "extra", true)))
                .isInstanceOf(InvalidRequest.class)
                .hasMessageContaining("arguments.extra: unknown parameter")
                .hasMessageContaining("arguments.repo: must match")
                .hasMessageContaining("arguments.count: must be at most 100");
        assertThatThrownBy(() -> ToolArguments.check(tool, Map.of("repo", "line\nbreak")))
                .hasMessageContaining("must not contain control characters");
        assertThatThrownBy(() -> ToolArguments.check(tool, Map.of("repo", 3)))
                .hasMessageContaining("arguments.repo: must be a string");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown parameter in argv    | argv[2]                     | {rep}         | airlock.tenants.acme.tools.git-log.argv[2]: unknown parameter {rep}
            pattern that does not compile| parameters.repo.pattern     | [a-           | airlock.tenants.acme.tools.git-log.parameters.repo.pattern: does not compile
            unused parameter             | argv[5]                     | 5             | airlock.tenants.acme.tools.git-log.parameters.count: parameter is not used in argv
            bad type                     | parameters.count.type       | float         | airlock.tenants.acme.tools.git-log.parameters.count.type: must be string, integer or boolean
            min above max                | parameters.count.min        | 200           | airlock.tenants.acme.tools.git-log.parameters.count.min: must not be greater than max
            default out of range         | parameters.count.default    | 0             | airlock.tenants.acme.tools.git-log.parameters.count.default: arguments.count: must be at least 1
            unclosed brace               | argv[3]                     | lo{g          | airlock.tenants.acme.tools.git-log.argv[3]: unclosed '{'
            program as parameter         | argv[0]                     | {repo}        | airlock.tenants.acme.tools.git-log.argv[0]: the program itself cannot be a parameter
            zero timeout                 | timeout                     | PT0S          | airlock.tenants.acme.tools.git-log.timeout: must be a positive duration
            observed below retained      | max-observed-bytes          | 1KB           | airlock.tenants.acme.tools.git-log.max-observed-bytes: must be at least max-retained-bytes
            bad secret variable          | secrets.TOKEN               | not a var     | airlock.tenants.acme.tools.git-log.secrets.TOKEN: must name the gateway environment variable
            no approvers                 | approvers                   | 0             | airlock.tenants.acme.tools.git-log: approvers must be at least 1
            bad reason policy            | reason                      | sometimes     | airlock.tenants.acme.tools.git-log.reason: must be required or optional
            read-only and destructive    | annotations.destructive-hint| false         | airlock.tenants.acme.tools.git-log.annotations.destructive-hint: a read-only tool destroys nothing
            read-only and idempotent     | annotations.idempotent-hint | true          | airlock.tenants.acme.tools.git-log.annotations.idempotent-hint: applies only to tools that change something
            """)
    void failsFastNamingTheBadKey(String what, String key, String value, String message) {
        Map<String, String> settings = key.startsWith("annotations.")
                ? Map.of(TOOL + key, value, TOOL + "annotations.read-only-hint", "true")
                : Map.of(TOOL + key, value);
        assertThatThrownBy(() -> ToolCompiler.compile(bind(settings)))
                .as(what)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith(message);
    }

    @ParameterizedTest
    @CsvSource({"airlock_status", "airlock_mine", "airlock_"})
    void refusesToolNamesReservedForTheBuiltInMcpTools(String name) {
        Map<String, String> settings = new HashMap<>();
        settings.put("airlock.tenants.acme.tools." + name + ".argv[0]", "true");
        assertThatThrownBy(() -> ToolCompiler.compile(bind(settings)))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).key()).isEqualTo("airlock.tenants.acme.tools." + name))
                .hasMessageContaining("reserved for Airlock's built-in MCP tools");
        settings.clear();
        settings.put("airlock.tenants.acme.tools.airlock-" + name.substring("airlock_".length()) + "x.argv[0]", "true");
        assertThat(ToolCompiler.compile(bind(settings)).tools("acme")).hasSize(2);
    }

    @Test
    void compilesTheAnnotationsAsConfiguredAndStatesNoneWhenAbsent() {
        Tool plain = ToolCompiler.compile(bind(Map.of())).find("acme", "git-log").orElseThrow();
        assertThat(plain.annotations()).isEqualTo(ToolAnnotations.NONE);
        Tool kebab = ToolCompiler.compile(bind(Map.of(TOOL + "annotations.read-only-hint", "true",
                TOOL + "annotations.open-world-hint", "false"))).find("acme", "git-log").orElseThrow();
        assertThat(kebab.annotations()).isEqualTo(new ToolAnnotations(true, null, null, false));
        Tool camel = ToolCompiler.compile(bind(Map.of(TOOL + "annotations.readOnlyHint", "false",
                TOOL + "annotations.destructiveHint", "true", TOOL + "annotations.idempotentHint", "false")))
                .find("acme", "git-log").orElseThrow();
        assertThat(camel.annotations()).isEqualTo(new ToolAnnotations(false, true, false, null));
    }

    @Test
    void rejectsDuplicateAndMalformedAgentKeyHashes() {
        String hash = "a".repeat(64);
        AirlockProperties duplicate = bind(Map.of(
                "airlock.tenants.acme.agents.one.key-sha256", hash,
                "airlock.tenants.acme.agents.two.key-sha256", hash));
        assertThatThrownBy(() -> AgentDirectory.from(duplicate))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("duplicate agent key hash");
        AirlockProperties malformed = bind(Map.of("airlock.tenants.acme.agents.one.key-sha256", "secret"));
        assertThatThrownBy(() -> AgentDirectory.from(malformed))
                .hasMessageStartingWith("airlock.tenants.acme.agents.one.key-sha256: must be the 64 hex digits");
    }

    @Test
    void authenticatesByTheHashOfTheKey() {
        AirlockProperties properties = bind(Map.of("airlock.tenants.acme.agents.bot.key-sha256",
                "bda2a027674a23f7b98b025e2c7849ddfd551512c38a6b533eb30865f8fd1e36"));
        AgentDirectory agents = AgentDirectory.from(properties);
        assertThat(agents.authenticate("acme-build-bot-key")).hasValueSatisfying(a -> assertThat(a.agent()).isEqualTo("bot"));
        assertThat(agents.authenticate("acme-build-bot-key ")).isEmpty();
    }
}
