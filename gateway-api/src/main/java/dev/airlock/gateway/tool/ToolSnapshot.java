package dev.airlock.gateway.tool;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.airlock.gateway.capture.SandboxPolicy;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A tool definition as recorded with every run requested under it (and what execution reads
 * back). Secrets appear only as where their values come from, never as values.
 *
 * @param name              the tool
 * @param argv              the argv template
 * @param parameters        parameter schemas by name
 * @param approval          AUTO, REQUIRED or DENY
 * @param approvers         approvals needed
 * @param approvalTimeout   ISO-8601 duration
 * @param approveReasonRequired whether approving needs a reason
 * @param timeout           ISO-8601 duration
 * @param maxRetainedBytes  per stream
 * @param maxObservedBytes  per stream
 * @param workingDir        or null
 * @param env               extra environment
 * @param secrets           child variable → where the value comes from ({@code env:NAME}, {@code file:/path} or {@code NAME})
 * @param sandbox           the sandbox settings; null in definitions recorded before sandboxes existed, and for HTTP tools
 * @param http              an HTTP tool's request template; absent for a process
 * @param upstream          the upstream an HTTP tool calls; absent for a process
 * @param rules             the policy rules, in order; absent when there are none
 * @param description       what the tool is for, as configured (or, for an upstream MCP server's tool, the server's
 *                          words, sanitized); absent when none; shown to approvers
 * @param mcp               an upstream MCP server's tool: server, tool, pinned definition digest, input schema;
 *                          absent otherwise
 */
public record ToolSnapshot(
        String name,
        List<String> argv,
        Map<String, Map<String, Object>> parameters,
        String approval,
        int approvers,
        String approvalTimeout,
        boolean approveReasonRequired,
        String timeout,
        long maxRetainedBytes,
        long maxObservedBytes,
        @Nullable String workingDir,
        Map<String, String> env,
        Map<String, String> secrets,
        @Nullable SandboxPolicy sandbox,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, Object> http,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable HttpUpstream upstream,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<Map<String, Object>> rules,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String description,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, Object> mcp) {

    /** The sandbox settings to run under: a definition recorded before they existed gets the defaults. */
    public SandboxPolicy sandboxOrDefaults() {
        return sandbox == null ? SandboxPolicy.DEFAULTS : sandbox;
    }
}
