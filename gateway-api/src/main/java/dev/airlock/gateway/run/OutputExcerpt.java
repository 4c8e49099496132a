package dev.airlock.gateway.run;

import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.sanitizer.Fence;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A bounded part of a transcript, by line range or search term, so that an agent can read a long
 * output piece by piece.
 *
 * @param runId      the run
 * @param stream     stdout or stderr
 * @param totalLines lines in the whole transcript
 * @param from       first line looked at (1-based)
 * @param to         last line looked at
 * @param grep       the search term, or null
 * @param lines      the lines returned, with their numbers
 * @param truncated  whether more lines matched than were returned
 * @param fenced     the returned lines' text inside the untrusted-output fence
 */
public record OutputExcerpt(
        String runId,
        String stream,
        int totalLines,
        int from,
        int to,
        @Nullable String grep,
        List<Line> lines,
        boolean truncated,
        String fenced) {

    /** The most lines one excerpt returns. */
    public static final int MAX_LINES = 1000;
    /** The most characters of text one excerpt returns. */
    public static final int MAX_CHARS = 256 * 1024;
    /** The longest search term. */
    public static final int MAX_GREP = 200;

    /**
     * @param number the 1-based line number in the transcript
     * @param text   the line, without its line break
     */
    public record Line(int number, String text) {}

    /** Cuts the excerpt out of {@code transcript}. A search term matches as plain text, never as a pattern. */
    static OutputExcerpt of(
            String runId,
            String tool,
            String stream,
            String transcript,
            @Nullable Integer from,
            @Nullable Integer to,
            @Nullable String grep) {
        if (grep != null && (grep.isEmpty() || grep.length() > MAX_GREP)) {
            throw InvalidRequest.field("grep", "grep must be 1 to " + MAX_GREP + " characters.");
        }
        String[] all = transcript.isEmpty() ? new String[0] : transcript.split("\n", -1);
        int total = all.length > 0 && all[all.length - 1].isEmpty() ? all.length - 1 : all.length;
        int first = from == null ? 1 : from;
        int last = to == null
                ? (grep == null ? (int) Math.min((long) first + MAX_LINES - 1, Integer.MAX_VALUE) : total)
                : to;
        if (first < 1 || last < first) {
            throw InvalidRequest.field(
                    first < 1 || to == null ? "from" : "to",
                    "Line range must satisfy 1 <= from <= to (got from=" + first + ", to=" + last + ").");
        }
        last = Math.min(last, total);
        List<Line> lines = new ArrayList<>();
        boolean truncated = false;
        int chars = 0;
        for (int n = first; n <= last; n++) {
            String text = all[n - 1];
            if (grep != null && !text.contains(grep)) {
                continue;
            }
            if (lines.size() == MAX_LINES || chars + text.length() > MAX_CHARS) {
                truncated = true;
                break;
            }
            lines.add(new Line(n, text));
            chars += text.length();
        }
        StringBuilder body = new StringBuilder();
        lines.forEach(l -> body.append(l.text()).append('\n'));
        return new OutputExcerpt(
                runId,
                stream,
                total,
                first,
                Math.max(first, last),
                grep,
                lines,
                truncated,
                Fence.wrap(tool + " " + stream, body.toString()));
    }
}
