package dev.airlock.gateway.approval;

import dev.airlock.gateway.support.Sha256;
import dev.airlock.gateway.tool.ToolSnapshot;
import dev.airlock.sanitizer.AuditView;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The canonical text of an action, the one thing approvers authorize: tenant, tool, every argv
 * element on its own line, working directory, environment and the names (never the values) of
 * injected secrets. Every value is written in the strict audit-view notation, so a character
 * that is not printable ASCII (a bidi override, a zero-width space, a line break) shows as
 * {@code \xNN} and cannot pose as something else. Its SHA-256 is what a decision names.
 *
 * @param text   the rendering
 * @param digest its SHA-256, lower-case hex
 */
public record ActionRendering(String text, String digest) {

    /** The rendering of running {@code argv} under {@code tool} in {@code tenant}. */
    public static ActionRendering of(String tenant, ToolSnapshot tool, List<String> argv) {
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
        String rendered = text.toString();
        return new ActionRendering(rendered, Sha256.hex(rendered));
    }

    private static void line(StringBuilder text, String key, String value) {
        text.append(key).append(": ").append(AuditView.encode(value.getBytes(StandardCharsets.UTF_8))).append('\n');
    }
}
