package dev.airlock.gateway.explain;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.settings.AgentSettingsConfiguration;
import dev.airlock.gateway.tenant.AgentDirectory;
import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.gateway.tool.Tool;
import dev.airlock.gateway.tool.ToolArguments;
import dev.airlock.gateway.tool.ToolCatalog;
import dev.airlock.gateway.tool.ToolCompiler;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.SettingsConfiguration;
import dev.airlock.kernel.config.TenantNames;
import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.rules.PolicyDecision;
import dev.airlock.rules.RuleInput;
import java.io.PrintStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.context.annotation.Import;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code java -jar airlock-gateway.jar --airlock.policy.explain=acme/kubectl --airlock.policy.agent=ops-bot
 * --airlock.policy.arguments='{"namespace":"prod"}'}: prints, as JSON, the policy that call would
 * get (the decision, approvers, reason policy, timeout) and the rule that decided, after checking
 * the arguments as a run request would. It reads the configuration only: no database, no web
 * server, nothing runs. Exit status 0 when it could say, 2 when the request itself is wrong (an
 * unknown tenant, tool or agent, bad arguments), 1 for a configuration that does not start.
 */
public final class PolicyExplainCommand {

    /** The property that runs the command. */
    public static final String PROPERTY = "airlock.policy.explain";

    private PolicyExplainCommand() {}

    /** Whether the command line asks for this command. */
    public static boolean requested(String[] args) {
        for (String arg : args) {
            if (arg.startsWith("--" + PROPERTY + "=")) {
                return true;
            }
        }
        return System.getenv("AIRLOCK_POLICY_EXPLAIN") != null;
    }

    /**
     * The configuration the command reads: the settings records, nothing else. The people's side's
     * record is registered by name (this side never compiles against it), so that every key of the
     * configuration is known and an unknown one stops the command as it stops the start.
     */
    @SpringBootConfiguration
    @Import({SettingsConfiguration.class, AgentSettingsConfiguration.class})
    @ComponentScan(
            basePackages = "dev.airlock.approval.settings",
            useDefaultFilters = false,
            includeFilters = @ComponentScan.Filter(type = FilterType.REGEX, pattern = ".*SettingsConfiguration"))
    static class Configuration {}

    /** Runs the command; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Configuration.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .properties("logging.level.root=WARN")
                .run(args)) {
            return explain(
                    context.getBean(AirlockProperties.class),
                    context.getBean(AgentSettings.class),
                    context.getBean(TenantNames.class),
                    out,
                    err);
        } catch (RuntimeException e) {
            Throwable cause = e;
            while (cause != null && !(cause instanceof InvalidConfigurationException)) {
                cause = cause.getCause();
            }
            err.println(cause != null ? "Invalid Airlock configuration at " + cause.getMessage() : e.getMessage());
            return 1;
        }
    }

    static int explain(
            AirlockProperties shared, AgentSettings settings, TenantNames tenants, PrintStream out, PrintStream err) {
        AgentSettings.Policy request = settings.policy();
        String target = request.explain() == null ? "" : request.explain();
        int slash = target.indexOf('/');
        if (slash < 1 || slash == target.length() - 1) {
            err.println("airlock.policy.explain must be <tenant>/<tool>, not '" + target + "'");
            return 2;
        }
        String tenant = target.substring(0, slash);
        String toolName = target.substring(slash + 1);
        ToolCatalog catalog = ToolCompiler.compile(shared, settings, tenants);
        AgentIdentity agent = AgentDirectory.from(shared).agentsByKeyHash().values().stream()
                .filter(a -> a.tenant().equals(tenant) && a.agent().equals(request.agent()))
                .findFirst()
                .orElse(null);
        if (agent == null) {
            err.println("tenant " + tenant + " has no agent '" + request.agent() + "' (set airlock.policy.agent)");
            return 2;
        }
        Tool tool = catalog.find(agent, toolName).orElse(null);
        if (tool == null) {
            err.println("agent " + agent.agent() + " of tenant " + tenant + " has no tool '" + toolName + "'");
            return 2;
        }
        // Read as a run request is (duplicate keys refused, the same bounds), so the answer is the server's.
        JsonMapper json = JsonMapper.builder(dev.airlock.gateway.http.BoundedJson.factory(1 << 20))
                .build();
        Map<String, Object> arguments;
        ToolArguments checked;
        try {
            arguments = json.readValue(request.arguments(), new TypeReference<Map<String, Object>>() {});
            checked = ToolArguments.check(tool, arguments);
        } catch (InvalidRequest e) {
            err.println(e.getMessage());
            return 2;
        } catch (RuntimeException e) {
            err.println("airlock.policy.arguments must be a JSON object of the tool's arguments: " + e.getMessage());
            return 2;
        }
        PolicyDecision decision = tool.rules()
                .decide(new RuleInput(
                        checked.values(), agent.agent(), agent.labels(), tenant, tool.name(), Instant.now()));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("tenant", tenant);
        answer.put("tool", tool.name());
        answer.put("agent", agent.agent());
        answer.put("arguments", checked.values());
        answer.put("decision", decision.policy().mode().name());
        answer.put("approvers", decision.policy().approvers());
        answer.put("approveReasonRequired", decision.policy().approveReasonRequired());
        answer.put("approvalTimeout", decision.policy().approvalTimeout().toString());
        answer.put("rule", decision.rule());
        answer.put("ruleIndex", decision.ruleIndex());
        answer.put("failure", decision.failure());
        out.println(json.writerWithDefaultPrettyPrinter().writeValueAsString(answer));
        return 0;
    }
}
