package dev.airlock.gateway.run;

import dev.airlock.gateway.capture.CallFacts;
import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.capture.MountRules;
import dev.airlock.gateway.capture.ProcessSpec;
import dev.airlock.gateway.capture.ProcessSupervisor;
import dev.airlock.gateway.capture.SecretReference;
import dev.airlock.gateway.capture.SecretSource;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.tool.RenderedRequest;
import dev.airlock.gateway.tool.ToolSnapshot;
import dev.airlock.gateway.tool.ToolSnapshots;
import dev.airlock.persistence.approval.ApprovalRequest;
import dev.airlock.persistence.run.ActionKind;
import dev.airlock.sanitizer.SecretRedactor;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a claimed run into the process to start, or into the reason it may not start: a run
 * people approved starts only if its action, rendered again from what is stored, is still
 * exactly the approved one; its secrets are read now, from the gateway's own sources, and never
 * stored; the rest comes from the tool's recorded definition.
 */
@Component
class RunLaunch {

    private static final Logger log = LoggerFactory.getLogger(RunLaunch.class);

    private final ToolSnapshots snapshots;
    private final dev.airlock.gateway.tool.ToolCatalog catalog;
    private final ApprovalRequests approvals;
    private final SecretSource secrets;
    private final ProcessSupervisor sandbox;
    private final AgentSettings properties;
    private final JsonMapper json;
    private final Clock clock;
    private final dev.airlock.gateway.tenant.AgentDirectory agents;
    private final LeaseFence fence;

    RunLaunch(
            ToolSnapshots snapshots,
            dev.airlock.gateway.tool.ToolCatalog catalog,
            dev.airlock.gateway.tenant.AgentDirectory agents,
            ApprovalRequests approvals,
            SecretSource secrets,
            ProcessSupervisor sandbox,
            AgentSettings properties,
            JsonMapper json,
            Clock clock,
            LeaseFence fence) {
        this.fence = fence;
        this.snapshots = snapshots;
        this.catalog = catalog;
        this.agents = agents;
        this.approvals = approvals;
        this.secrets = secrets;
        this.sandbox = sandbox;
        this.properties = properties;
        this.json = json;
        this.clock = clock;
    }

    /** What to do with a claimed run: start a process, or record that it could not start. */
    sealed interface Plan {

        /** The tool's name, for metrics and the record. */
        String tool();
    }

    /**
     * Start this process.
     *
     * @param action the digest of the approved action it was checked against, or null when it needs no approval
     */
    record Start(String tool, ProcessSpec spec, @Nullable String action) implements Plan {}

    /** Do not start: record this result. */
    record Refuse(String tool, CaptureResult result) implements Plan {}

    /**
     * Send this request (an HTTP tool's run).
     *
     * @param action the digest of the approved request it was checked against, or null when it needs no approval
     */
    record Call(
            String tool,
            ToolSnapshot definition,
            RenderedRequest request,
            @Nullable String action) implements Plan {}

    /**
     * Call this tool of an upstream MCP server (an upstream MCP tool's run).
     *
     * @param action the digest of the approved call it was checked against, or null when it needs no approval
     */
    record McpCall(
            String tool,
            ToolSnapshot definition,
            dev.airlock.gateway.tool.McpCallRequest call,
            @Nullable String action) implements Plan {}

    Plan plan(Execution execution) {
        ToolSnapshot tool = snapshots.definition(execution.tenant(), execution.toolSnapshotId());
        if (fence.lapsed(execution.runId(), System.nanoTime())) {
            log.error(
                    "Run {}: its lease was last written more than {} ago (this replica could not reach the database,"
                            + " or its claim was answered late); not starting it",
                    execution.runId(),
                    fence.lapseAfter());
            return refuse(
                    execution,
                    tool,
                    "the run's lease was not renewed in time (its replica could not reach the database, or its claim"
                            + " was answered late); nothing was started");
        }
        String revoked = execution.decidedHere() ? null : revocation(execution.run());
        if (revoked != null) {
            log.warn("Run {}: {}; refusing to run it", execution.runId(), revoked);
            return refuse(execution, tool, revoked);
        }
        try {
            return prepare(execution, tool);
        } catch (RuntimeException e) {
            // A recorded action this build cannot read, or a look-up that failed: nothing is started, and the agent is
            // told so (left to the lease, the run would end INTERRUPTED, its outcome unknown). The cause stays in the
            // log.
            log.error("Run {}: its action could not be prepared; not starting it", execution.runId(), e);
            return refuse(
                    execution,
                    tool,
                    "its recorded action could not be prepared to run ("
                            + e.getClass().getSimpleName() + "); nothing was started");
        }
    }

    /** The process to start, or the call to make, for a run that may start; or why it may not. */
    private Plan prepare(Execution execution, ToolSnapshot tool) {
        if (execution.kind() == ActionKind.HTTP) {
            return call(execution, tool);
        }
        if (execution.kind() == ActionKind.MCP) {
            return mcpCall(execution, tool);
        }
        List<String> argv = json.readValue(execution.argvJson(), new TypeReference<List<String>>() {});
        // A run with an approval request is checked against it whatever its row says.
        Optional<ApprovalRequest> request = approvalOf(execution);
        String approved = null;
        if (execution.approvalRequired() || request.isPresent()) {
            String digest = RunActions.render(execution.tenant(), tool, argv, null, sandbox.sandbox())
                    .decidedBy(execution.policyRule())
                    .digest();
            if (request.filter(r -> ApprovalRequests.approves(r, digest)).isEmpty()) {
                log.error(
                        "Run {}: the action to execute is not the approved action; refusing to run it",
                        execution.runId());
                return refuse(execution, tool, "the action differs from the action humans approved");
            }
            approved = digest;
        }
        // The definition was recorded when the run was requested: its mounts must still keep today's rules.
        // Keyed as today's configuration keys the tool, so that its own secret files stay its own.
        String owner = "airlock.tenants." + execution.tenant() + ".tools." + tool.name();
        Path workingDir = tool.workingDir() == null ? null : Path.of(tool.workingDir());
        String mountProblem = catalog.mounts()
                .problem(
                        MountRules.mountsOf(owner, tool.sandboxOrDefaults(), workingDir),
                        MountRules.secretFilesOf(owner, tool.secrets()));
        if (mountProblem != null) {
            log.error(
                    "Run {}: its recorded mounts break the mount rules of today's configuration; refusing to run it",
                    execution.runId());
            return refuse(execution, tool, "the tool's recorded mounts are no longer allowed: " + mountProblem);
        }
        // So must its environment: a name today's rules refuse (one the host's loader reads) is not handed over.
        try {
            dev.airlock.gateway.tool.ToolCompiler.checkEnvironment(tool.env(), tool.secrets(), owner);
        } catch (dev.airlock.kernel.config.InvalidConfigurationException e) {
            log.error(
                    "Run {}: its recorded environment breaks the rules of today's configuration; refusing to run it",
                    execution.runId());
            return refuse(execution, tool, "the tool's recorded environment is no longer allowed: " + e.getMessage());
        }
        Map<String, String> environment = new HashMap<>(tool.env());
        environment.put("PATH", properties.capture().path());
        Map<String, String> injected = new TreeMap<>();
        for (Map.Entry<String, String> secret : tool.secrets().entrySet()) {
            try {
                injected.put(
                        secret.getKey(),
                        SecretReference.parse(secret.getValue()).read(secrets));
            } catch (IllegalArgumentException | SecretReference.SecretUnavailable e) {
                return refuse(
                        execution, tool, "secret " + secret.getKey() + " is not available (" + e.getMessage() + ")");
            }
        }
        environment.putAll(injected);
        return new Start(
                tool.name(),
                new ProcessSpec(
                        execution.runId(),
                        tool.name(),
                        argv,
                        workingDir,
                        environment,
                        Duration.parse(tool.timeout()),
                        tool.maxRetainedBytes(),
                        tool.maxObservedBytes(),
                        // As a tool is likely to print them too: JSON-escaped, percent-encoded, Base64.
                        SecretRedactor.of(dev.airlock.gateway.upstream.UpstreamCredentials.withEncodings(injected)),
                        tool.sandboxOrDefaults()),
                approved);
    }

    /** An HTTP tool's run: its request as recorded, sent only if it is still exactly what people approved. */
    private Plan call(Execution execution, ToolSnapshot tool) {
        RenderedRequest request = json.readValue(
                java.util.Objects.requireNonNull(execution.requestJson(), "the recorded request of an HTTP run"),
                RenderedRequest.class);
        Optional<ApprovalRequest> approval = approvalOf(execution);
        String approved = null;
        if (execution.approvalRequired() || approval.isPresent()) {
            String digest = RunActions.render(execution.tenant(), tool, List.of(), request, sandbox.sandbox())
                    .decidedBy(execution.policyRule())
                    .digest();
            if (approval.filter(r -> ApprovalRequests.approves(r, digest)).isEmpty()) {
                log.error(
                        "Run {}: the request to send is not the approved request; refusing to send it",
                        execution.runId());
                Instant now = clock.instant();
                return new Refuse(
                        tool.name(),
                        CaptureResult.callRefused(
                                now,
                                new CallFacts(
                                        request.upstream(),
                                        request.method(),
                                        request.url(),
                                        null,
                                        Map.of(),
                                        0,
                                        "the request differs from the request humans approved",
                                        true)));
            }
            approved = digest;
        }
        return new Call(tool.name(), tool, request, approved);
    }

    /** An upstream MCP tool's run: its call as recorded, made only if it is still exactly what people approved. */
    private Plan mcpCall(Execution execution, ToolSnapshot tool) {
        dev.airlock.gateway.tool.McpCallRequest call = json.readValue(
                java.util.Objects.requireNonNull(execution.requestJson(), "the recorded call of an MCP run"),
                dev.airlock.gateway.tool.McpCallRequest.class);
        Optional<ApprovalRequest> approval = approvalOf(execution);
        String approved = null;
        if (execution.approvalRequired() || approval.isPresent()) {
            String digest;
            try {
                digest = RunActions.render(execution.tenant(), tool, call)
                        .decidedBy(execution.policyRule())
                        .digest();
            } catch (IllegalStateException e) {
                digest = "";
            }
            String checked = digest;
            if (checked.isEmpty()
                    || approval.filter(r -> ApprovalRequests.approves(r, checked))
                            .isEmpty()) {
                log.error("Run {}: the call to make is not the approved call; refusing to make it", execution.runId());
                return new Refuse(
                        tool.name(),
                        CaptureResult.mcpRefused(
                                clock.instant(),
                                new dev.airlock.gateway.capture.McpFacts(
                                        call.server(),
                                        call.tool(),
                                        null,
                                        null,
                                        "the call differs from the call humans approved")));
            }
            approved = digest;
        }
        return new McpCall(tool.name(), tool, call, approved);
    }

    /**
     * The run's approval request, read whatever its row says, except for a run whose policy this
     * process decided just now to start at once: no approval request exists for it, and not reading
     * one saves a query on every automatic run.
     */
    private Optional<ApprovalRequest> approvalOf(Execution execution) {
        if (execution.decidedHere()) {
            return Optional.empty();
        }
        return approvals.of(execution.runId(), execution.tenant());
    }

    /**
     * Why a run read back from the database (approved, or claimed again after a replica was lost)
     * may no longer run under today's configuration, or null: its agent was removed, the tool is no
     * longer one the agent may use, or the tool now refuses everything. Removing an agent or a tool,
     * or setting it to deny, stops the work already waiting for people or for a free slot too.
     */
    private @Nullable String revocation(dev.airlock.persistence.run.RunRecord run) {
        Optional<dev.airlock.gateway.tenant.AgentIdentity> agent = agents.agent(run.tenant(), run.agent());
        if (agent.isEmpty()) {
            return "agent " + run.agent() + " is no longer configured";
        }
        if (run.kind() == ActionKind.MCP) {
            // Whether the server still lists the tool, under the approved definition, is the call's to
            // check: it reads the listing again first (the catalog holds the last listing only).
            return agent.get().mayUse(run.tool()) ? null : "agent " + run.agent() + " may no longer use " + run.tool();
        }
        Optional<dev.airlock.gateway.tool.Tool> current = catalog.find(agent.get(), run.tool());
        if (current.isEmpty()) {
            return "tool " + run.tool() + " is no longer configured for agent " + run.agent();
        }
        if (current.get().policy().mode() == dev.airlock.kernel.config.ApprovalMode.DENY
                && current.get().rules().size() == 0) {
            return "tool " + run.tool() + " is now denied";
        }
        return null;
    }

    private Refuse refuse(Execution execution, ToolSnapshot tool, String why) {
        return new Refuse(tool.name(), notStarted(execution, why));
    }

    /**
     * The result of a run that was not started, saying why where its agent reads it: a process's failure, or a call's
     * reason (a call's envelope shows its reason, not a process's failure).
     */
    CaptureResult notStarted(Execution execution, String why) {
        Instant now = clock.instant();
        String recorded = execution.requestJson();
        try {
            return callNotStarted(execution, recorded, now, why);
        } catch (RuntimeException e) {
            // A recorded request this build cannot read: the reason goes in as a process's failure instead.
            log.warn("Run {}: its recorded request could not be read ({})", execution.runId(), e.toString());
            return CaptureResult.spawnFailed(now, now, why);
        }
    }

    private CaptureResult callNotStarted(Execution execution, @Nullable String recorded, Instant now, String why) {
        if (execution.kind() == ActionKind.HTTP && recorded != null) {
            RenderedRequest request = json.readValue(recorded, RenderedRequest.class);
            return CaptureResult.callRefused(
                    now,
                    new CallFacts(request.upstream(), request.method(), request.url(), null, Map.of(), 0, why, true));
        }
        if (execution.kind() == ActionKind.MCP && recorded != null) {
            dev.airlock.gateway.tool.McpCallRequest call =
                    json.readValue(recorded, dev.airlock.gateway.tool.McpCallRequest.class);
            return CaptureResult.mcpRefused(
                    now, new dev.airlock.gateway.capture.McpFacts(call.server(), call.tool(), null, null, why));
        }
        return CaptureResult.spawnFailed(now, now, why);
    }
}
