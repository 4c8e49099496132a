package dev.airlock.approval.console;

import dev.airlock.sanitizer.AuditView;
import dev.airlock.sanitizer.TerminalSanitizer;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * How console pages show strings that agents, tools or other people control (arguments, reasons,
 * names): never as they are. Templates call it as {@code ${@inert.strict(..)}} and
 * {@code ${@inert.text(..)}}; Thymeleaf then HTML-escapes the result as usual. Stateless and
 * thread-safe.
 */
@Component("inert")
public class InertText {

    /**
     * The strict audit view: printable ASCII as it is, every other byte (bidi overrides,
     * zero-width characters, line breaks, any non-ASCII letter) as {@code \xNN}. For values whose
     * every byte matters, such as arguments.
     */
    public @Nullable String strict(@Nullable Object value) {
        return value == null ? null : AuditView.encode(String.valueOf(value).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A line of an action as an approver reads it: spaces at its end written {@code \x20}, as the
     * strict view writes the bytes it does not show, so {@code "prod "} never looks like
     * {@code "prod"}; the page keeps runs of spaces inside a line as they are.
     */
    public @Nullable String edges(@Nullable String line) {
        if (line == null) {
            return null;
        }
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) == ' ') {
            end--;
        }
        return line.substring(0, end) + "\\x20".repeat(line.length() - end);
    }

    /**
     * The sanitized text: terminal controls and invisible Unicode (bidi overrides, zero-width
     * characters) removed, line separators made line feeds, readable letters kept. For prose
     * people typed, such as reasons.
     */
    public @Nullable String text(@Nullable Object value) {
        return value == null
                ? null
                : TerminalSanitizer.sanitize(String.valueOf(value).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Untrusted text inside the untrusted-data fence, sanitized first, with {@code label} naming whose
     * words they are: for the agent's own reason, which no one should read as Airlock's.
     */
    public @Nullable String fenced(String label, @Nullable Object value) {
        String text = text(value);
        return text == null ? null : dev.airlock.sanitizer.Fence.wrap(label, text.endsWith("\n") ? text : text + "\n");
    }
}
