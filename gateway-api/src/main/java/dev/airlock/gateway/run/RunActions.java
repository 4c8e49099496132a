package dev.airlock.gateway.run;

import dev.airlock.gateway.capture.SandboxPolicy;
import dev.airlock.gateway.tool.ToolSnapshot;
import dev.airlock.kernel.action.Action;
import dev.airlock.kernel.action.ActionRendering;
import dev.airlock.persistence.run.SandboxKind;
import java.util.List;

/** The action a run executes, as approvers authorize it, from the tool's recorded definition. */
final class RunActions {

    private RunActions() {}

    /**
     * The rendering of running {@code argv} under {@code tool} in {@code tenant}, in a gateway whose
     * sandbox is {@code sandbox}. A gateway restarted with another sandbox mode renders another
     * action, so an approval given under one mode never lets a run execute under the other.
     */
    static ActionRendering render(String tenant, ToolSnapshot tool, List<String> argv, SandboxKind sandbox) {
        SandboxPolicy policy = tool.sandbox();
        Action.Sandbox terms = policy == null
                ? null
                : new Action.Sandbox(
                        sandbox.key(),
                        policy.network(),
                        policy.readOnlyPaths(),
                        policy.writablePaths(),
                        policy.maxProcesses(),
                        policy.maxMemoryBytes(),
                        policy.maxFileSizeBytes(),
                        policy.maxOpenFiles(),
                        policy.tmpSizeBytes());
        return ActionRendering.of(new Action(
                tenant,
                tool.name(),
                argv,
                tool.workingDir(),
                tool.env(),
                List.copyOf(tool.secrets().keySet()),
                tool.timeout(),
                terms));
    }
}
