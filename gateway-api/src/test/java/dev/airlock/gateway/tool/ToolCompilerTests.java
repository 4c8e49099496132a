package dev.airlock.gateway.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.capture.SandboxPolicy;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.settings.BoundSettings;
import dev.airlock.gateway.tenant.AgentDirectory;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.problem.InvalidRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.bind.BindException;

/** Configuration as platform teams write it, bound by Spring Boot and compiled into tools. */
class ToolCompilerTests {

    private static final String TOOL = "airlock.tenants.acme.tools.git-log.";

    private static BoundSettings bind(Map<String, String> entries) {
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
        return BoundSettings.bind(all);
    }

    private static ToolCatalog catalog(Map<String, String> entries) {
        return bind(entries).catalog();
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({
        "env.LD_PRELOAD, /srv/build/lib/evil.so",
        "env.LD_LIBRARY_PATH, /srv/build/lib",
        "env.GCONV_PATH, /srv/build",
        "env.MALLOC_CHECK_, 3",
        "env.GLIBC_TUNABLES, glibc.malloc.check=3",
        "secrets.LD_AUDIT, env:AUDIT_LIB"
    })
    void aVariableTheHostsLoaderReadsStopsTheStartNamingIt(String key, String value) {
        assertThatThrownBy(() -> catalog(Map.of(TOOL + key, value)))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith(TOOL + key + ": is read by the dynamic loader");
        assertThat(catalog(Map.of(TOOL + "env.LANG", "C.UTF-8")).find("acme", "git-log"))
                .isPresent();
    }

    @Test
    void aPatternThatBacktracksIsRefusedWithinItsBudgetNotRunForSeconds() {
        Tool tool = catalog(Map.of(TOOL + "parameters.repo.pattern", ".*_.*_.*_.*\\.csv"))
                .find("acme", "git-log")
                .orElseThrow();
        String hostile = "_".repeat(1000);
        assertThatThrownBy(() -> ToolArguments.check(tool, Map.of("repo", hostile, "count", 5)))
                .isInstanceOf(dev.airlock.kernel.problem.InvalidRequest.class)
                .hasMessageContaining("took too long to match");
        assertThat(ToolArguments.check(tool, Map.of("repo", "a_b_c_d.csv", "count", 5))
                        .values())
                .containsEntry("repo", "a_b_c_d.csv");
    }

    @Test
    void rendersEachParameterAsOneWholeArgument() {
        Tool tool = catalog(Map.of(TOOL + "parameters.repo.pattern", ".+"))
                .find("acme", "git-log")
                .orElseThrow();
        ToolArguments args = ToolArguments.check(tool, Map.of("repo", "src/app; rm -rf /", "count", 5));
        assertThat(args.argv()).isEqualTo(List.of("git", "-C", "src/app; rm -rf /", "log", "-n", "5"));
    }

    @Test
    void splicesOnlyWhereTheTemplateSaysSo() {
        Tool tool = catalog(Map.of(TOOL + "argv[4]", "--max-count={count}", TOOL + "argv[5]", "{{literal}}"))
                .find("acme", "git-log")
                .orElseThrow();
        assertThat(ToolArguments.check(tool, Map.of("repo", "r", "count", 7)).argv())
                .isEqualTo(List.of("git", "-C", "r", "log", "--max-count=7", "{literal}"));
    }

    @Test
    void fillsDefaultsAndReportsEveryBadArgument() {
        Tool tool = catalog(Map.of(TOOL + "parameters.count.default", "10"))
                .find("acme", "git-log")
                .orElseThrow();
        assertThat(ToolArguments.check(tool, Map.of("repo", "r")).argv()).endsWith("10");
        assertThatThrownBy(() -> ToolArguments.check(tool, Map.of("repo", "a b", "count", 101L, "extra", true)))
                .isInstanceOf(InvalidRequest.class)
                .hasMessageContaining("arguments.extra: unknown parameter")
                .hasMessageContaining("arguments.repo: must match")
                .hasMessageContaining("arguments.count: must be at most 100");
        assertThatThrownBy(() -> ToolArguments.check(tool, Map.of("repo", "line\nbreak")))
                .hasMessageContaining("must not contain control characters");
        assertThatThrownBy(() -> ToolArguments.check(tool, Map.of("repo", "half\ud800pair")))
                .hasMessageContaining("arguments.repo: must not contain half of a surrogate pair");
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
            bad secret variable          | secrets.TOKEN               | not a var     | airlock.tenants.acme.tools.git-log.secrets.TOKEN: must be env:VARIABLE, file:/absolute/path or the name of a gateway environment variable
            relative secret file         | secrets.TOKEN               | file:token    | airlock.tenants.acme.tools.git-log.secrets.TOKEN: must be env:VARIABLE, file:/absolute/path
            unknown secret source        | secrets.TOKEN               | vault:a/b     | airlock.tenants.acme.tools.git-log.secrets.TOKEN: must be env:VARIABLE, file:/absolute/path
            relative read-only path      | sandbox.read-only-paths[0]  | srv/data      | airlock.tenants.acme.tools.git-log.sandbox.read-only-paths[0]: must be an absolute path
            read-only path with ..       | sandbox.read-only-paths[0]  | /srv/../etc   | airlock.tenants.acme.tools.git-log.sandbox.read-only-paths[0]: must be a normalized path
            writable root                | sandbox.writable-paths[0]   | /             | airlock.tenants.acme.tools.git-log.sandbox.writable-paths[0]: must not be the root directory
            one process                  | sandbox.max-processes       | 1             | airlock.tenants.acme.tools.git-log.sandbox.max-processes: must be at least 2
            no open files                | sandbox.max-open-files      | 0             | airlock.tenants.acme.tools.git-log.sandbox.max-open-files: must be at least 1
            no memory                    | sandbox.max-memory          | 0B            | airlock.tenants.acme.tools.git-log.sandbox.max-memory: must be a positive size
            no file size                 | sandbox.max-file-size       | 0B            | airlock.tenants.acme.tools.git-log.sandbox.max-file-size: must be a positive size
            no tmp                       | sandbox.tmp-size            | 0B            | airlock.tenants.acme.tools.git-log.sandbox.tmp-size: must be a positive size
            no approvers                 | approvers                   | 0             | airlock.tenants.acme.tools.git-log.approvers: must be at least 1
            read-only and destructive    | annotations.destructive-hint| false         | airlock.tenants.acme.tools.git-log.annotations.destructive-hint: a read-only tool destroys nothing
            read-only and idempotent     | annotations.idempotent-hint | true          | airlock.tenants.acme.tools.git-log.annotations.idempotent-hint: applies only to tools that change something
            values on an integer         | parameters.count.values[0]  | 5             | airlock.tenants.acme.tools.git-log.parameters.count.values: only string parameters take values
            relative working dir         | working-dir                 | scratch/../repos | airlock.tenants.acme.tools.git-log.working-dir: must be an absolute path, not 'scratch/../repos'
            working dir with ..          | working-dir                 | /srv/../repos | airlock.tenants.acme.tools.git-log.working-dir: must be a normalized path
            """)
    void failsFastNamingTheBadKey(String what, String key, String value, String message) {
        Map<String, String> settings = key.startsWith("annotations.")
                ? Map.of(TOOL + key, value, TOOL + "annotations.read-only-hint", "true")
                : Map.of(TOOL + key, value);
        assertThatThrownBy(() -> catalog(settings))
                .as(what)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void anEmptyListOfValuesIsRefusedNotReadAsAnyValue() {
        Map<String, String> settings = new HashMap<>(
                Map.of(TOOL + "argv[0]", "git", TOOL + "argv[1]", "{repo}", TOOL + "parameters.repo.values", ""));
        assertThatThrownBy(() -> BoundSettings.bind(settings).catalog())
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith(TOOL + "parameters.repo.values: must list at least one value");
    }

    @ParameterizedTest
    @CsvSource({"airlock_status", "airlock_mine", "airlock_"})
    void refusesToolNamesReservedForTheBuiltInMcpTools(String name) {
        Map<String, String> settings = new HashMap<>();
        settings.put("airlock.tenants.acme.tools." + name + ".argv[0]", "true");
        assertThatThrownBy(() -> catalog(settings))
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(((InvalidConfigurationException) e).key())
                        .isEqualTo("airlock.tenants.acme.tools." + name))
                .hasMessageContaining("reserved for Airlock's built-in MCP tools");
        settings.clear();
        settings.put("airlock.tenants.acme.tools.airlock-" + name.substring("airlock_".length()) + "x.argv[0]", "true");
        assertThat(catalog(settings).tools("acme")).hasSize(2);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            no runs                      | limits.concurrent-runs           | 0  | airlock.tenants.acme.limits.concurrent-runs: must be at least 1
            negative runs                | limits.concurrent-runs           | -3 | airlock.tenants.acme.limits.concurrent-runs: must be at least 1
            no rate                      | limits.runs-per-minute-per-agent | 0  | airlock.tenants.acme.limits.runs-per-minute-per-agent: must be at least 1
            negative waits               | limits.concurrent-waits          | -1 | airlock.tenants.acme.limits.concurrent-waits: must be 0 (no request waits) or more
            no reads                     | limits.reads-per-minute-per-agent | 0 | airlock.tenants.acme.limits.reads-per-minute-per-agent: must be at least 1
            no pending                   | limits.pending-approvals-per-agent | 0 | airlock.tenants.acme.limits.pending-approvals-per-agent: must be at least 1
            """)
    void refusesTenantLimitsThatCannotHold(String what, String key, String value, String message) {
        assertThatThrownBy(() -> catalog(Map.of("airlock.tenants.acme." + key, value)))
                .as(what)
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void bindsTheTenantLimitsWithTheirDefaults() {
        assertThat(bind(Map.of()).agent().tenant("acme").limits())
                .isEqualTo(new AgentSettings.Limits(8, 120, 100, 1200, 50));
        assertThat(bind(Map.of("airlock.tenants.acme.limits.concurrent-waits", "0"))
                        .agent()
                        .tenant("acme")
                        .limits()
                        .concurrentWaits())
                .isZero();
    }

    @Test
    void compilesTheAnnotationsAsConfiguredAndStatesNoneWhenAbsent() {
        Tool plain = catalog(Map.of()).find("acme", "git-log").orElseThrow();
        assertThat(plain.annotations()).isEqualTo(ToolAnnotations.NONE);
        Tool kebab = catalog(Map.of(
                        TOOL + "annotations.read-only-hint", "true", TOOL + "annotations.open-world-hint", "false"))
                .find("acme", "git-log")
                .orElseThrow();
        assertThat(kebab.annotations()).isEqualTo(new ToolAnnotations(true, null, null, false));
        Tool camel = catalog(Map.of(
                        TOOL + "annotations.readOnlyHint",
                        "false",
                        TOOL + "annotations.destructiveHint",
                        "true",
                        TOOL + "annotations.idempotentHint",
                        "false"))
                .find("acme", "git-log")
                .orElseThrow();
        assertThat(camel.annotations()).isEqualTo(new ToolAnnotations(false, true, false, null));
    }

    @Test
    void refusesTheRootDirectoryAsAWorkingDirectory() {
        // Bound from text, "/" becomes a class-path location (Spring's PathEditor), so the record is built here.
        AgentSettings.Tool bound = bind(Map.of()).agent().tenant("acme").tools().get("git-log");
        AgentSettings.Tool atRoot = new AgentSettings.Tool(
                bound.description(),
                bound.argv(),
                bound.parameters(),
                bound.approval(),
                bound.approvers(),
                bound.approvalTimeout(),
                bound.reason(),
                bound.timeout(),
                bound.maxRetainedBytes(),
                bound.maxObservedBytes(),
                "/",
                bound.env(),
                bound.secrets(),
                bound.sandbox(),
                bound.annotations(),
                null,
                List.of(),
                null);
        assertThatThrownBy(() -> ToolCompiler.compile("acme", "git-log", atRoot, "airlock.tenants.acme.tools.git-log"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith(
                        "airlock.tenants.acme.tools.git-log.working-dir: must not be the root directory");
    }

    @Test
    void acceptsEverySecretSourceExistingConfigurationsUse() {
        Tool tool = catalog(Map.of(
                        TOOL + "secrets.A",
                        "GITHUB_TOKEN",
                        TOOL + "secrets.B",
                        "env:GITHUB_TOKEN",
                        TOOL + "secrets.C",
                        "file:/run/secrets/github-token"))
                .find("acme", "git-log")
                .orElseThrow();
        assertThat(tool.secrets())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("A", "GITHUB_TOKEN", "B", "env:GITHUB_TOKEN", "C", "file:/run/secrets/github-token"));
    }

    @Test
    void givesAToolWithoutSandboxSettingsTheDocumentedDefaults() {
        Tool tool = catalog(Map.of()).find("acme", "git-log").orElseThrow();
        assertThat(tool.sandbox()).isEqualTo(SandboxPolicy.DEFAULTS);
        assertThat(tool.sandbox())
                .isEqualTo(new SandboxPolicy(false, List.of(), List.of(), 256, 1L << 30, 1L << 30, 1024, 256L << 20));
        assertThat(bind(Map.of()).agent().sandbox())
                .isEqualTo(new AgentSettings.Sandbox(
                        dev.airlock.kernel.config.SandboxMode.BUBBLEWRAP, null, 65534, 65534, null, null));
    }

    @Test
    void bindsAToolsSandboxSettings() {
        Tool tool = catalog(Map.of(
                        TOOL + "sandbox.network",
                        "true",
                        TOOL + "sandbox.read-only-paths[0]",
                        "/srv/reference",
                        TOOL + "sandbox.writable-paths[0]",
                        "/srv/cache",
                        TOOL + "sandbox.max-processes",
                        "32",
                        TOOL + "sandbox.max-memory",
                        "512MB",
                        TOOL + "sandbox.max-file-size",
                        "10MB",
                        TOOL + "sandbox.max-open-files",
                        "64",
                        TOOL + "sandbox.tmp-size",
                        "16MB"))
                .find("acme", "git-log")
                .orElseThrow();
        assertThat(tool.sandbox())
                .isEqualTo(new SandboxPolicy(
                        true,
                        List.of("/srv/reference"),
                        List.of("/srv/cache"),
                        32,
                        512L << 20,
                        10L << 20,
                        64,
                        16L << 20));
    }

    @Test
    void stopsTheStartOnASandboxModeItDoesNotKnow() {
        assertThat(bind(Map.of("airlock.sandbox.mode", "none"))
                        .agent()
                        .sandbox()
                        .mode())
                .isEqualTo(dev.airlock.kernel.config.SandboxMode.NONE);
        assertThatThrownBy(() -> bind(Map.of(TOOL + "reason", "sometimes")))
                .isInstanceOf(BindException.class)
                .hasMessageContaining(TOOL + "reason");
        assertThatThrownBy(() -> bind(Map.of("airlock.sandbox.mode", "firejail")))
                .isInstanceOf(BindException.class)
                .hasMessageContaining("airlock.sandbox.mode");
    }

    @Test
    void rejectsDuplicateAndMalformedAgentKeyHashes() {
        String hash = "a".repeat(64);
        AirlockProperties duplicate = bind(Map.of(
                        "airlock.tenants.acme.agents.one.key-sha256", hash,
                        "airlock.tenants.acme.agents.two.key-sha256", hash))
                .shared();
        assertThatThrownBy(() -> AgentDirectory.from(duplicate))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("duplicate agent key hash");
        AirlockProperties malformed = bind(Map.of("airlock.tenants.acme.agents.one.key-sha256", "secret"))
                .shared();
        assertThatThrownBy(() -> AgentDirectory.from(malformed))
                .hasMessageStartingWith("airlock.tenants.acme.agents.one.key-sha256: must be the 64 hex digits");
    }

    @Test
    void anAgentsToolPatternsNameUpstreamToolsAsTheyAreSpelledAndNothingElse() {
        String hash = "b".repeat(64);
        AgentDirectory agents = AgentDirectory.from(bind(Map.of(
                        "airlock.tenants.acme.agents.bot.key-sha256", hash,
                        "airlock.tenants.acme.agents.bot.tools[0]", "github.createIssue",
                        "airlock.tenants.acme.agents.bot.tools[1]", "jira.get_*"))
                .shared());
        var bot = agents.agentsByKeyHash().get(hash);
        assertThat(bot.mayUse("github.createIssue")).isTrue();
        assertThat(bot.mayUse("github.createissue"))
                .as("names match exactly, case included")
                .isFalse();
        assertThat(bot.mayUse("github.createIssueComment")).isFalse();
        assertThat(bot.mayUse("jira.get_Ticket")).isTrue();
        assertThat(bot.mayUse("jira.delete_ticket")).isFalse();
        for (String pattern : List.of("github/createIssue", "a b", "x".repeat(201))) {
            assertThatThrownBy(() -> AgentDirectory.from(bind(Map.of(
                                    "airlock.tenants.acme.agents.bot.key-sha256", hash,
                                    "airlock.tenants.acme.agents.bot.tools[0]", pattern))
                            .shared()))
                    .as(pattern)
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageStartingWith("airlock.tenants.acme.agents.bot.tools[0]: must be a tool name");
        }
    }

    @Test
    void authenticatesByTheHashOfTheKey() {
        AirlockProperties properties = bind(Map.of(
                        "airlock.tenants.acme.agents.bot.key-sha256",
                        "bda2a027674a23f7b98b025e2c7849ddfd551512c38a6b533eb30865f8fd1e36"))
                .shared();
        AgentDirectory agents = AgentDirectory.from(properties);
        assertThat(agents.authenticate("acme-build-bot-key"))
                .hasValueSatisfying(a -> assertThat(a.agent()).isEqualTo("bot"));
        assertThat(agents.authenticate("acme-build-bot-key ")).isEmpty();
    }

    private static final String SH = "airlock.tenants.acme.tools.sh.";
    private static final String SUB = "airlock.tenants.globex.tools.subtool.";

    private static Map<String, String> twoTools(String shKey, String shValue, String subKey, String subValue) {
        Map<String, String> entries = new HashMap<>();
        entries.put(SH + "argv[0]", "sh");
        entries.put(SH + shKey, shValue);
        entries.put(SUB + "argv[0]", "ls");
        entries.put(SUB + subKey, subValue);
        return entries;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            writable path inside another tool's writable path  | sandbox.writable-paths[0] | /srv/shared     | sandbox.writable-paths[0] | /srv/shared/sub | sandbox.writable-paths[0]
            read-only path inside another tool's writable path | sandbox.writable-paths[0] | /srv/shared     | sandbox.read-only-paths[0] | /srv/shared/sub | sandbox.read-only-paths[0]
            working dir inside another tool's writable path    | sandbox.writable-paths[0] | /srv/shared     | working-dir               | /srv/shared/sub | working-dir
            read-only path inside another tool's working dir   | working-dir               | /srv/work       | sandbox.read-only-paths[0] | /srv/work/deep/x | sandbox.read-only-paths[0]
            """)
    void refusesAMountSourceInsideAnotherToolsWritableDirectoryNamingBothKeys(
            String what, String shKey, String shPath, String subKey, String subPath, String refusedKey) {
        assertThatThrownBy(() -> catalog(twoTools(shKey, shPath, subKey, subPath)))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith(SUB + refusedKey + ": " + subPath + " lies inside " + shPath)
                .hasMessageContaining(SH + shKey);
    }

    @Test
    void refusesAToolsOwnMountInsideItsOwnWritablePath() {
        assertThatThrownBy(() -> catalog(Map.of(
                        TOOL + "sandbox.writable-paths[0]",
                        "/srv/cache",
                        TOOL + "sandbox.read-only-paths[0]",
                        "/srv/cache/ref")))
                .hasMessageStartingWith(TOOL + "sandbox.read-only-paths[0]: /srv/cache/ref lies inside /srv/cache")
                .hasMessageContaining(TOOL + "sandbox.writable-paths[0]");
    }

    @Test
    void sharesOneDirectoryBetweenToolsAndMountsAroundWritableOnes() {
        ToolCatalog catalog = catalog(Map.of(
                TOOL + "sandbox.read-only-paths[0]",
                "/srv/shared",
                SH + "argv[0]",
                "sh",
                SH + "sandbox.writable-paths[0]",
                "/srv/shared",
                SUB + "argv[0]",
                "ls",
                SUB + "sandbox.read-only-paths[0]",
                "/srv",
                SUB + "sandbox.writable-paths[0]",
                "/srv/shared-not-below"));
        assertThat(catalog.find("globex", "subtool")).isPresent();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            the work area's parent     | sandbox.read-only-paths[0] | /var/airlock        | airlock.sandbox.work-dir  | show runs
            inside the work area       | sandbox.writable-paths[0]  | /var/airlock/work/x | airlock.sandbox.work-dir  | let runs change
            the data directory         | working-dir                | /var/airlock-data   | airlock.data-dir          | let runs change
            another tool's secret file | sandbox.read-only-paths[0] | /run/secrets        | airlock.tenants.acme.tools.sh.secrets.TOKEN | show runs
            its own secret's directory, writable | sandbox.writable-paths[0] | /run/own     | airlock.tenants.acme.tools.git-log.secrets.OWN | let runs change
            what every sandbox reads from /etc | sandbox.writable-paths[0] | /etc/ssl     | (the sandbox's /etc)      | let runs change
            the system's /usr          | working-dir                | /usr/local/work     | (the sandbox's system)    | let runs change
            """)
    void refusesAMountThatReachesAirlocksOwnFiles(
            String what, String key, String path, String reservedKey, String verb) {
        Map<String, String> entries = new HashMap<>(Map.of(
                "airlock.sandbox.work-dir",
                "/var/airlock/work",
                "airlock.data-dir",
                "/var/airlock-data",
                SH + "argv[0]",
                "sh",
                SH + "secrets.TOKEN",
                "file:/run/secrets/token",
                TOOL + "secrets.OWN",
                "file:/run/own/token",
                TOOL + key,
                path));
        assertThatThrownBy(() -> catalog(entries))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith(TOOL + key + ": " + path + " would " + verb)
                .hasMessageContaining(reservedKey);
    }

    @Test
    void letsAToolReadTheSystemsDirectoriesItMountsAnyway() {
        assertThat(catalog(Map.of(
                                TOOL + "sandbox.read-only-paths[0]",
                                "/usr/share/dict",
                                TOOL + "sandbox.read-only-paths[1]",
                                "/etc"))
                        .find("acme", "git-log"))
                .isPresent();
    }

    @Test
    void letsAToolMountTheDirectoryOfItsOwnSecretFile() {
        assertThat(catalog(Map.of(
                                TOOL + "secrets.TOKEN",
                                "file:/run/secrets/token",
                                TOOL + "sandbox.read-only-paths[0]",
                                "/run/secrets"))
                        .find("acme", "git-log"))
                .isPresent();
    }
}
