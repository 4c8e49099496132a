package dev.airlock.kernel.action;

import dev.airlock.sanitizer.AuditView;
import java.nio.charset.StandardCharsets;

/**
 * The canonical text of an action, the one thing approvers authorize: tenant, tool, every argv
 * element on its own line, working directory, environment, the names (never the values) of
 * injected secrets, and the sandbox it runs in with what that sandbox lets it reach. Every value
 * is written in the strict audit-view notation, so a character that is not printable ASCII (a
 * bidi override, a zero-width space, a line break) shows as {@code \xNN} and cannot pose as
 * something else. Its SHA-256 is what a decision names; the agent side renders the action when it
 * parks a run and again before it executes one, and runs it only if both digests match the one
 * people approved.
 *
 * @param text   the rendering
 * @param digest its SHA-256, lower-case hex
 */
public record ActionRendering(String text, String digest) {

    /** The rendering of {@code action}. */
    public static ActionRendering of(Action action) {
        StringBuilder text = new StringBuilder();
        line(text, "tenant", action.tenant());
        line(text, "tool", action.tool());
        for (int i = 0; i < action.argv().size(); i++) {
            line(text, "argv[" + i + "]", action.argv().get(i));
        }
        line(text, "working-dir", action.workingDir() == null ? "(a fresh empty directory)" : action.workingDir());
        action.env().forEach((name, value) -> line(text, "env " + name, value));
        action.secretNames().forEach(name -> line(text, "secret " + name, "(injected from the gateway, value hidden)"));
        line(text, "timeout", action.timeout());
        // Definitions recorded before sandboxes existed keep their rendering, so approvals given
        // for them still match; they run with the default (most restrictive) sandbox settings.
        Action.Sandbox sandbox = action.sandbox();
        if (sandbox != null) {
            line(text, "sandbox", sandbox.kind());
            if (sandbox.kind().equals(Action.Sandbox.BUBBLEWRAP)) {
                line(
                        text,
                        "sandbox network",
                        sandbox.network() ? "the host's network" : "none (a loopback of its own)");
                sandbox.readOnlyPaths().forEach(path -> line(text, "sandbox read-only", path));
                sandbox.writablePaths().forEach(path -> line(text, "sandbox writable", path));
                line(
                        text,
                        "sandbox limits",
                        "processes " + sandbox.maxProcesses() + ", memory " + sandbox.maxMemoryBytes()
                                + " B, file size " + sandbox.maxFileBytes() + " B, open files " + sandbox.maxOpenFiles()
                                + ", tmp " + sandbox.tmpBytes() + " B");
            }
        }
        String rendered = text.toString();
        return new ActionRendering(rendered, sha256(rendered));
    }

    /**
     * This rendering with the policy rule that decided the run as its last line, so that approving
     * an action decided by one rule cannot approve the same action under another. Unchanged for
     * {@code null}: runs requested before rules existed keep the digest people approved.
     */
    public ActionRendering decidedBy(@org.jspecify.annotations.Nullable String rule) {
        if (rule == null) {
            return this;
        }
        StringBuilder more = new StringBuilder(text);
        line(more, "policy-rule", rule);
        String rendered = more.toString();
        return new ActionRendering(rendered, sha256(rendered));
    }

    /**
     * The rendering of an HTTP tool's request: the method, the URL and every header on a line of
     * its own (credentials only as {@code [secret NAME]}), the SHA-256 of the exact body bytes, and
     * the body as people read it, each of its lines on a line of its own.
     */
    public static ActionRendering of(HttpAction action) {
        StringBuilder text = new StringBuilder();
        line(text, "tenant", action.tenant());
        line(text, "tool", action.tool());
        line(text, "upstream", action.upstream());
        line(text, "method", action.method());
        line(text, "url", action.url());
        action.headers().forEach(header -> line(text, "header " + header.name(), header.value()));
        byte[] body = action.body();
        if (body == null) {
            line(text, "body", "(none)");
        } else {
            line(text, "body-sha256", dev.airlock.kernel.digest.Sha256.hex(body));
            String view = action.bodyView() == null ? new String(body, StandardCharsets.UTF_8) : action.bodyView();
            view.lines().forEach(l -> line(text, "body", l));
        }
        line(text, "timeout", action.timeout());
        String rendered = text.toString();
        return new ActionRendering(rendered, sha256(rendered));
    }

    /**
     * The rendering of a call of an upstream MCP server's tool: the server, the tool's name there,
     * the digest of the pinned definition the call was checked against (a changed tool is another
     * action), the SHA-256 of the canonical arguments and the arguments, line by line.
     */
    public static ActionRendering of(McpAction action) {
        StringBuilder text = new StringBuilder();
        line(text, "tenant", action.tenant());
        line(text, "tool", action.tool());
        line(text, "mcp-server", action.server());
        line(text, "mcp-tool", action.serverTool());
        line(text, "definition-sha256", action.definitionSha256());
        line(text, "arguments-sha256", sha256(action.arguments()));
        action.arguments().lines().forEach(l -> line(text, "arguments", l));
        line(text, "timeout", action.timeout());
        String rendered = text.toString();
        return new ActionRendering(rendered, sha256(rendered));
    }

    private static void line(StringBuilder text, String key, String value) {
        text.append(key)
                .append(": ")
                .append(AuditView.encode(value.getBytes(StandardCharsets.UTF_8)))
                .append('\n');
    }

    private static String sha256(String text) {
        return dev.airlock.kernel.digest.Sha256.hex(text);
    }
}
