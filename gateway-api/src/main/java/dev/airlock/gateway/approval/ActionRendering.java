package dev.airlock.gateway.approval;

import dev.airlock.gateway.capture.SandboxPolicy;
import dev.airlock.gateway.support.Sha256;
import dev.airlock.gateway.tool.ToolSnapshot;
import dev.airlock.persistence.run.SandboxKind;
import dev.airlock.sanitizer.AuditView;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The canonical text of an action, the one thing approvers authorize: tenant, tool, every argv
 * element on its own line, working directory, environment, the names (never the values) of
 * injected secrets, and the sandbox it runs in with what that sandbox lets it reach. Every value is written in the strict audit-view notation, so a character
 * that is not printable ASCII (a bidi override, a zero-width space, a line break) shows as
 * {@code \xNN} and cannot pose as something else. Its SHA-256 is what a decision names.
 *
 * @param text   the rendering
 * @param digest its SHA-256, lower-case hex
 */
public record ActionRendering(String text, String digest) {

    /**
     * The rendering of running {@code argv} under {@code tool} in {@code tenant}, in a gateway whose
     * sandbox is {@code sandbox}. A gateway restarted with another sandbox mode renders another
     * action, so an approval given under one mode never lets a run execute under the other.
     */
    public static ActionRendering of(String tenant, ToolSnapshot tool, List<String> argv, SandboxKind sandbox) {
        StringBuilder text = new StringBuilder();
        line(text, "tenant", tenant);
        line(text, "tool", tool.name());
        for (int i = 0; i < argv.size(); i++) {
            line(text, "argv[" + i + "]", argv.get(i));
        }
        line(text, "working-dir", tool.workingDir() == null ? "(a fresh empty directory)" : tool.workingDir());
        tool.env().forEach((name, value) -> line(text, "env " + name, value));
        tool.secrets().keySet().forEach(name -> line(text, "secret " + name, "(injected from the gateway, value hidden)"));
        line(text, "timeout", tool.timeout());
        // Definitions recorded before sandboxes existed keep their rendering, so approvals given
        // for them still match; they run with the default (most restrictive) sandbox settings.
        if (tool.sandbox() != null) {
            line(text, "sandbox", sandbox.key());
            if (sandbox == SandboxKind.BUBBLEWRAP) {
                SandboxPolicy policy = tool.sandbox();
                line(text, "sandbox network", policy.network() ? "the host's network" : "none (a loopback of its own)");
                policy.readOnlyPaths().forEach(path -> line(text, "sandbox read-only", path));
                policy.writablePaths().forEach(path -> line(text, "sandbox writable", path));
                line(text, "sandbox limits", "processes " + policy.maxProcesses() + ", memory " + policy.maxMemoryBytes()
                        + " B, file size " + policy.maxFileSizeBytes() + " B, open files " + policy.maxOpenFiles()
                        + ", tmp " + policy.tmpSizeBytes() + " B");
            }
        }
        String rendered = text.toString();
        return new ActionRendering(rendered, Sha256.hex(rendered));
    }

    private static void line(StringBuilder text, String key, String value) {
        text.append(key).append(": ").append(AuditView.encode(value.getBytes(StandardCharsets.UTF_8))).append('\n');
    }
}
