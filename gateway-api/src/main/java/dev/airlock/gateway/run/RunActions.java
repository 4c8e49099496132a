package dev.airlock.gateway.run;

import dev.airlock.gateway.capture.SandboxPolicy;
import dev.airlock.gateway.tool.HttpUpstream;
import dev.airlock.gateway.tool.RenderedRequest;
import dev.airlock.gateway.tool.ToolSnapshot;
import dev.airlock.kernel.action.Action;
import dev.airlock.kernel.action.ActionRendering;
import dev.airlock.kernel.action.HttpAction;
import dev.airlock.persistence.run.SandboxKind;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The action a run executes, as approvers authorize it, from the tool's recorded definition. */
final class RunActions {

    private RunActions() {}

    /**
     * The rendering of running {@code argv} under {@code tool} in {@code tenant}, in a gateway whose
     * sandbox is {@code sandbox}. A gateway restarted with another sandbox mode renders another
     * action, so an approval given under one mode never lets a run execute under the other.
     */
    static ActionRendering render(
            String tenant,
            ToolSnapshot tool,
            List<String> argv,
            @Nullable RenderedRequest request,
            SandboxKind sandbox) {
        HttpUpstream upstream = tool.upstream();
        if (request != null && upstream != null) {
            return ActionRendering.of(http(tenant, tool, upstream, request));
        }
        if (request != null || upstream != null) {
            throw new IllegalStateException(
                    "the run's request and its tool's definition disagree on what the action is");
        }
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

    private static final tools.jackson.databind.json.JsonMapper CANONICAL =
            tools.jackson.databind.json.JsonMapper.builder()
                    .enable(tools.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .enable(tools.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                    .build();

    /** The rendering of a call of an upstream MCP server's tool under {@code tool} in {@code tenant}. */
    static ActionRendering render(String tenant, ToolSnapshot tool, dev.airlock.gateway.tool.McpCallRequest call) {
        if (tool.mcp() == null || !call.definitionSha256().equals(tool.mcp().get("definitionSha256"))) {
            throw new IllegalStateException("the run's call and its tool's recorded definition disagree");
        }
        return ActionRendering.of(new dev.airlock.kernel.action.McpAction(
                tenant,
                tool.name(),
                call.server(),
                call.tool(),
                call.definitionSha256(),
                CANONICAL.writeValueAsString(call.arguments()),
                tool.timeout()));
    }

    /** An HTTP tool's request as approvers see it: the credential's header by the name of its source only. */
    private static HttpAction http(String tenant, ToolSnapshot tool, HttpUpstream upstream, RenderedRequest request) {
        List<HttpAction.Header> headers = new ArrayList<>();
        HttpUpstream.Auth auth = upstream.auth();
        if (auth != null) {
            headers.add(new HttpAction.Header(auth.headerName(), auth.shown()));
        }
        request.headers().forEach(h -> headers.add(new HttpAction.Header(h.name(), h.value())));
        return new HttpAction(
                tenant,
                tool.name(),
                upstream.name(),
                request.method(),
                request.url(),
                headers,
                request.body(),
                request.bodyView(),
                tool.timeout());
    }
}
