package dev.airlock.approval.console;

import dev.airlock.approval.request.ApprovalService;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import dev.airlock.persistence.tenant.TenantRecords;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What an approver needs beside the exact action to decide well: what the tool is for (its
 * configured description, or an upstream MCP server's words), how this agent's last runs of the
 * tool ended, and how this request's arguments differ from those of the last request of the tool
 * that people approved.
 */
@ConditionalOnSide(Side.CONSOLE)
@Component
class DecisionContext {

    private static final int RECENT = 5;

    private final TenantRecords tenants;
    private final RunRepository runs;
    private final ApprovalService approvals;
    private final JsonMapper json = JsonMapper.builder().build();

    DecisionContext(TenantRecords tenants, RunRepository runs, ApprovalService approvals) {
        this.tenants = tenants;
        this.runs = runs;
        this.approvals = approvals;
    }

    /**
     * One earlier run of the tool by the agent.
     *
     * @param runId     the run
     * @param createdAt when it was requested
     * @param state     its state
     * @param outcome   how it ended, in a few words
     */
    record RecentRun(String runId, Instant createdAt, String state, String outcome) {}

    /**
     * One argument compared with the last approved request of the tool.
     *
     * @param name   the argument
     * @param before its value then (JSON), or null when it was not given
     * @param now    its value now (JSON), or null when it is not given
     * @param kind   changed, added or removed
     */
    record ArgumentChange(
            String name, @Nullable String before, @Nullable String now, String kind) {

        static ArgumentChange of(String name, @Nullable String before, @Nullable String now) {
            return new ArgumentChange(
                    name, before, now, before == null ? "added" : now == null ? "removed" : "changed");
        }
    }

    /**
     * The difference to the last approved request of the tool.
     *
     * @param runId       that request's run
     * @param changes     the arguments that differ; empty when all are the same
     * @param toolChanged whether the tool's recorded definition differs from then (same arguments may then mean
     *                    another action)
     * @param ruleThen    the rule that decided then, when another rule decided now; else null
     */
    record ArgumentDiff(
            String runId,
            List<ArgumentChange> changes,
            boolean toolChanged,
            @Nullable String ruleThen) {}

    /**
     * A tool's description as recorded with a run's definition.
     *
     * @param text   the description
     * @param server the upstream MCP server whose tool it is, whose own words the description then is; null for a
     *               configured tool, whose description is the operator's
     */
    record ToolDescription(String text, @Nullable String server) {}

    /** The tool's description as recorded with the run's definition, if it has one. */
    Optional<ToolDescription> description(RunRecord run) {
        return tenants.toolDefinition(run.tenant(), run.toolSnapshotId())
                .flatMap(this::tree)
                .filter(definition -> definition.path("description").isString())
                .map(definition -> new ToolDescription(
                        definition.path("description").asString(),
                        definition.path("mcp").path("server").isString()
                                ? definition.path("mcp").path("server").asString()
                                : null));
    }

    /** The agent's last runs of the tool before this one that the viewer may see, newest first, at most five. */
    List<RecentRun> recent(RunRecord run, java.util.function.Predicate<RunRecord> visible) {
        return runs
                .findTop20ByTenantAndAgentAndToolAndCreatedAtBeforeOrderByCreatedAtDesc(
                        run.tenant(), run.agent(), run.tool(), run.createdAt())
                .stream()
                .filter(visible)
                .limit(RECENT)
                .map(r -> new RecentRun(
                        r.id().toString(), r.createdAt(), r.state().name(), outcome(r)))
                .toList();
    }

    /** How the run's arguments differ from those of the last approved request of its tool, if there is one. */
    Optional<ArgumentDiff> sinceLastApproved(RunRecord run) {
        return approvals
                .lastApproved(run.tenant(), run.tool(), run.id())
                .flatMap(last -> runs.findByIdAndTenant(last.runId(), run.tenant()))
                .map(last -> new ArgumentDiff(
                        last.id().toString(),
                        changes(last.argumentsJson(), run.argumentsJson()),
                        last.toolSnapshotId() != run.toolSnapshotId(),
                        java.util.Objects.equals(last.policyRule(), run.policyRule()) ? null : last.policyRule()));
    }

    private List<ArgumentChange> changes(String beforeJson, String nowJson) {
        Map<String, String> before = values(beforeJson);
        Map<String, String> now = values(nowJson);
        TreeSet<String> names = new TreeSet<>(before.keySet());
        names.addAll(now.keySet());
        List<ArgumentChange> changes = new ArrayList<>();
        for (String name : names) {
            String then = before.get(name);
            String current = now.get(name);
            if (then == null || !then.equals(current)) {
                changes.add(ArgumentChange.of(name, then, current));
            }
        }
        return changes;
    }

    /** Each top-level argument as canonical JSON text. */
    private Map<String, String> values(String arguments) {
        Map<String, String> values = new TreeMap<>();
        tree(arguments)
                .ifPresent(node -> node.properties()
                        .forEach(e -> values.put(e.getKey(), e.getValue().toString())));
        return values;
    }

    private Optional<JsonNode> tree(String text) {
        try {
            JsonNode node = json.readTree(text);
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }

    private static String outcome(RunRecord run) {
        if (run.exitCode() != null) {
            return "exit " + run.exitCode();
        }
        if (run.termination() != null) {
            return run.termination().name();
        }
        return run.state().isTerminal() ? run.state().name() : "not ended";
    }
}
