package dev.airlock.gateway.run;

import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.sanitizer.TerminalSanitizer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The agent's own words on why it asks for a run: untrusted text, as the output of a tool is. At
 * most {@link #MAX_LENGTH} characters are accepted; terminal controls and invisible Unicode are
 * removed by the same sanitizer as a tool's output; line breaks become spaces. Approvers see it
 * fenced and labelled as the agent's words; no decision rests on it.
 */
final class AgentReasons {

    /** The longest reason accepted, in characters. */
    static final int MAX_LENGTH = 500;

    private AgentReasons() {}

    /**
     * The reason as it is stored and shown, or null for none.
     *
     * @throws InvalidRequest naming the field when it is longer than {@link #MAX_LENGTH}
     */
    static @Nullable String clean(@Nullable String reason) {
        if (reason == null) {
            return null;
        }
        if (reason.length() > MAX_LENGTH) {
            throw InvalidRequest.field("reason", "Field 'reason' is longer than " + MAX_LENGTH + " characters.");
        }
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        TerminalSanitizer sanitizer = TerminalSanitizer.create(text::write);
        byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        sanitizer.write(bytes, 0, bytes.length);
        sanitizer.finish();
        String clean = text.toString(StandardCharsets.UTF_8)
                .replaceAll("[\\t\\n]+", " ")
                .strip();
        return clean.isEmpty() ? null : clean;
    }
}
