package dev.airlock.gateway.support;

import dev.airlock.gateway.tool.HttpUpstream;
import dev.airlock.gateway.tool.ToolSnapshot;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A tool's definition as a run recorded it under an earlier configuration: today's, with one part as it was then. */
public final class ToolSnapshots {

    private ToolSnapshots() {}

    /** {@code now} with the upstream it had when the run was requested. */
    public static ToolSnapshot withUpstream(ToolSnapshot now, HttpUpstream then) {
        return recorded(now, then, now.mcp());
    }

    /** {@code now} with the MCP target it had when the run was requested. */
    public static ToolSnapshot withMcp(ToolSnapshot now, Map<String, Object> then) {
        return recorded(now, now.upstream(), then);
    }

    private static ToolSnapshot recorded(
            ToolSnapshot now, @Nullable HttpUpstream upstream, @Nullable Map<String, Object> mcp) {
        return new ToolSnapshot(
                now.name(),
                now.argv(),
                now.parameters(),
                now.approval(),
                now.approvers(),
                now.approvalTimeout(),
                now.approveReasonRequired(),
                now.timeout(),
                now.maxRetainedBytes(),
                now.maxObservedBytes(),
                now.workingDir(),
                now.env(),
                now.secrets(),
                now.sandbox(),
                now.http(),
                upstream,
                now.rules(),
                now.description(),
                mcp);
    }
}
