package dev.airlock.gateway.mcp;

import dev.airlock.gateway.run.OutputExcerpt;
import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.persistence.run.RunState;
import dev.airlock.sanitizer.Fence;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns what Airlock recorded about a run into an MCP tool result. Pure: no I/O.
 *
 * <p>The text items are of two kinds that cannot be confused: Airlock's own one-line statements,
 * each starting with {@code "Airlock: "}, and what the tool printed, fenced with a gutter on
 * every line (so nothing it printed can start a line like a statement). Every fact also stands
 * in {@code structuredContent}, the envelope, which only Airlock writes.
 */
final class CallResults {

    /** Prefix of every line Airlock writes outside a fence. */
    static final String VOICE = "Airlock: ";

    private final int maxText;
    private final Duration callWait;
    private final String consoleBase;

    /**
     * @param maxText     characters of transcript text one answer carries
     * @param callWait    how long a call waits for its run
     * @param consoleBase the console's address, for the page where people decide a pending run
     */
    CallResults(int maxText, Duration callWait, String consoleBase) {
        this.maxText = maxText;
        this.callWait = callWait;
        this.consoleBase = consoleBase.replaceAll("/+$", "");
    }

    /**
     * The answer for a run as it stands.
     *
     * @param envelope         the run's envelope
     * @param structured       the same envelope as the REST API's JSON
     * @param approvalsMissing approvals still needed, for a run waiting for people
     */
    McpSchema.CallToolResult run(Envelope envelope, Map<String, Object> structured, int approvalsMissing) {
        RunState state = RunState.valueOf(envelope.state());
        List<McpSchema.Content> content = new ArrayList<>();
        boolean failed = state.isTerminal() && !succeeded(envelope);
        if (!state.isTerminal()) {
            content.add(text(pending(envelope, state, approvalsMissing)));
        } else if (envelope.http() != null) {
            content.add(text(answer(envelope, envelope.http(), state)));
            details(envelope, envelope.http().reason()).ifPresent(content::add);
        } else if (envelope.mcp() != null) {
            content.add(text(answer(envelope, envelope.mcp(), state)));
            if (!"UPSTREAM_ERROR".equals(envelope.mcp().termination())) {
                details(envelope, envelope.mcp().reason()).ifPresent(content::add);
            }
        } else if (failed) {
            content.add(text(failure(envelope, state)));
        }
        content.addAll(transcripts(envelope));
        return McpSchema.CallToolResult.builder()
                .content(content)
                .isError(failed)
                .structuredContent(structured)
                .build();
    }

    /**
     * Whether the run completed with exit code 0, or (an HTTP tool) its upstream answered with a 2xx
     * status and the whole body: the only outcomes that are not errors.
     */
    static boolean succeeded(Envelope envelope) {
        Envelope.McpFacts mcp = envelope.mcp();
        if (mcp != null) {
            return RunState.COMPLETED.name().equals(envelope.state())
                    && "RESPONDED".equals(mcp.termination())
                    && !Boolean.TRUE.equals(mcp.isError());
        }
        Envelope.HttpFacts http = envelope.http();
        if (http != null) {
            return RunState.COMPLETED.name().equals(envelope.state())
                    && "RESPONDED".equals(http.termination())
                    && http.status() != null
                    && http.status() / 100 == 2;
        }
        return RunState.COMPLETED.name().equals(envelope.state())
                && envelope.process() != null
                && Integer.valueOf(0).equals(envelope.process().exitCode())
                && "EXITED".equals(envelope.process().termination());
    }

    /** A tool error with one statement and, where the refusal left one, the run's envelope. */
    McpSchema.CallToolResult refused(String statement, @Nullable Map<String, Object> structured) {
        var result = McpSchema.CallToolResult.builder()
                .addContent(text(VOICE + oneLine(statement)))
                .isError(true);
        if (structured != null) {
            result.structuredContent(structured);
        }
        return result.build();
    }

    /** An excerpt of a transcript, cut at {@code maxText} like a run's, with its JSON as structured content. */
    McpSchema.CallToolResult excerpt(OutputExcerpt excerpt, String tool, Map<String, Object> structured) {
        StringBuilder body = new StringBuilder();
        excerpt.lines().forEach(l -> body.append(l.text()).append('\n'));
        String text = body.toString();
        List<McpSchema.Content> content = new ArrayList<>();
        content.add(text(VOICE + "lines "
                + (excerpt.lines().isEmpty()
                        ? "none"
                        : excerpt.lines().getFirst().number() + " to "
                                + excerpt.lines().getLast().number())
                + " of " + excerpt.totalLines() + " of " + excerpt.stream() + " of run "
                + excerpt.runId() + (excerpt.grep() == null ? "" : " containing the search term")
                + (excerpt.truncated() ? "; more lines matched than one excerpt returns" : "") + "."));
        if (text.length() <= maxText) {
            content.add(text(excerpt.fenced()));
        } else {
            Cut cut = Cut.of(text, maxText);
            int next = excerpt.lines().get(cut.wholeLines()).number();
            content.add(text(Fence.wrap(tool + " " + excerpt.stream(), cut.shown()) + VOICE + "cut after "
                    + cut.shown().length()
                    + " of " + text.length() + " characters; airlock_output with "
                    + pointer(excerpt.runId(), excerpt.stream(), next, excerpt.grep() != null)
                    + " returns the rest.\n"));
        }
        return McpSchema.CallToolResult.builder()
                .content(content)
                .isError(false)
                .structuredContent(structured)
                .build();
    }

    private String pending(Envelope envelope, RunState state, int approvalsMissing) {
        String run = "run " + envelope.runId() + " (" + envelope.tool() + ")";
        String later = " Call airlock_status with {\"runId\":\"" + envelope.runId()
                + "\"} to get the outcome (it waits up to " + callWait.toSeconds() + " s for the run to end).";
        return switch (state) {
            case PENDING_APPROVAL ->
                VOICE + run + " is waiting for approval: a human must approve this exact action"
                        + (approvalsMissing > 0 ? " (" + approvals(approvalsMissing) + " still needed)" : "")
                        + " before it runs; nothing has run yet. Approvers decide at "
                        + consoleBase + "/console/runs/" + envelope.runId() + "." + later;
            default ->
                VOICE + run + " has not ended yet (state " + state + ") after " + callWait.toSeconds() + " s." + later
                        + " airlock_cancel stops it.";
        };
    }

    static String approvals(int missing) {
        return missing == 1 ? "1 more approval" : missing + " more approvals";
    }

    private static String failure(Envelope envelope, RunState state) {
        String run = "run " + envelope.runId() + " (" + envelope.tool() + ")";
        Envelope.ProcessFacts process = envelope.process();
        String termination = process == null ? null : process.termination();
        String statement = switch (state) {
            case COMPLETED ->
                switch (String.valueOf(termination)) {
                    case "OUTPUT_LIMIT" ->
                        run + " was killed: a stream passed its output limit (" + observed(envelope) + ").";
                    case "MEMORY_LIMIT" -> run + " was killed by the kernel: it reached its memory limit.";
                    default -> run + " exited with code " + (process == null ? null : process.exitCode()) + ".";
                };
            case FAILED ->
                run + " could not be started: "
                        + (process == null || process.failure() == null ? "no reason was recorded" : process.failure())
                        + ".";
            case TIMED_OUT -> run + " timed out and was killed.";
            case CANCELLED ->
                run
                        + (process != null && process.startedAt() != null
                                ? " was cancelled and killed."
                                : " was cancelled before it started.");
            case DENIED ->
                envelope.approval() != null && envelope.approval().required()
                        ? run + " was denied by an approver; it did not run."
                        : run + " was refused by the tool's policy; it did not run.";
            case EXPIRED -> run + " expired: no approver decided in time; it did not run.";
            default -> run + " ended in state " + state + ".";
        };
        return VOICE + oneLine(statement);
    }

    /** Airlock's statement of a call of an upstream MCP server's tool: how it ended, or why nothing was sent. */
    private static String answer(Envelope envelope, Envelope.McpFacts mcp, RunState state) {
        String call = "run " + envelope.runId() + " (" + envelope.tool() + "): tool " + mcp.tool() + " of MCP server "
                + mcp.server();
        long bytes = envelope.stdout() == null ? 0 : envelope.stdout().observedBytes();
        String why = detailsFollow(mcp.reason());
        String statement = switch (String.valueOf(mcp.termination())) {
            case "RESPONDED" ->
                call + " answered with " + (Boolean.TRUE.equals(mcp.isError()) ? "an error result" : "a result") + " ("
                        + bytes + " bytes).";
            case "UPSTREAM_ERROR" ->
                call + " answered with JSON-RPC error " + mcp.errorCode()
                        + "; the server's message is in its untrusted output below.";
            case "TIMED_OUT" -> call + " did not answer in time; the call was cancelled.";
            case "RESPONSE_LIMIT" -> call + " sent a message longer than its limit; the server was stopped.";
            case "SERVER_DOWN" -> call + " could not be made: the server is down" + why + ".";
            case "REFUSED" -> call + " was not made" + why + ".";
            case "CANCELLED" -> call + " was cancelled.";
            default -> failure(envelope, state).substring(VOICE.length());
        };
        return VOICE + oneLine(statement);
    }

    /** Airlock's statement of an HTTP tool's call: what was sent and what came back, or why nothing did. */
    private static String answer(Envelope envelope, Envelope.HttpFacts http, RunState state) {
        // The URL stays in the envelope: after a redirect its path is the upstream's choice.
        String call = "run " + envelope.runId() + " (" + envelope.tool() + "): " + http.method() + " to upstream "
                + http.upstream();
        long bytes = envelope.stdout() == null ? 0 : envelope.stdout().observedBytes();
        String statement = switch (String.valueOf(http.termination())) {
            case "RESPONDED" ->
                call + " answered " + http.status() + " (" + bytes + " bytes"
                        + (Boolean.FALSE.equals(http.bodyIsText()) ? ", not text: kept only in the raw artifact" : "")
                        + (http.attempts() > 1 ? ", after " + http.attempts() + " attempts" : "") + ").";
            case "RESPONSE_LIMIT" ->
                call + " answered " + http.status() + " with a body longer than the upstream's"
                        + " limit; the connection was cut after " + bytes + " bytes.";
            case "TIMED_OUT" -> call + " timed out" + detailsFollow(http.reason()) + "; the connection was cut.";
            case "CONNECT_FAILED" -> call + " could not be sent" + detailsFollow(http.reason()) + ".";
            case "CIRCUIT_OPEN" ->
                call + " was not sent: the upstream's circuit breaker is open after repeated failures.";
            case "REFUSED" -> call + " was refused" + detailsFollow(http.reason()) + "; nothing was sent there.";
            case "CANCELLED" -> call + " was cancelled.";
            default -> failure(envelope, state).substring(VOICE.length());
        };
        return VOICE + oneLine(statement);
    }

    /**
     * What a statement says where a reason exists: a reason may quote the upstream (an error message,
     * a host name), so it never stands in Airlock's own words but follows them, fenced ({@link #details}).
     */
    private static String detailsFollow(@Nullable String reason) {
        return reason == null || reason.isBlank() ? "" : " (the reason follows as untrusted text)";
    }

    /** The run's reason for how its call ended, fenced as untrusted text, if it has one. */
    private static java.util.Optional<McpSchema.Content> details(Envelope envelope, @Nullable String reason) {
        if (reason == null || reason.isBlank()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(text(Fence.wrap(envelope.tool() + " reason", reason)));
    }

    private static String observed(Envelope envelope) {
        List<String> parts = new ArrayList<>();
        if (envelope.stdout() != null) {
            parts.add("stdout " + envelope.stdout().observedBytes() + " bytes");
        }
        if (envelope.stderr() != null) {
            parts.add("stderr " + envelope.stderr().observedBytes() + " bytes");
        }
        return parts.isEmpty() ? "no stream facts recorded" : String.join(", ", parts) + " observed";
    }

    /** One fenced text item per stream that printed something, together cut at {@code maxText} characters. */
    private List<McpSchema.Content> transcripts(Envelope envelope) {
        String out = text(envelope.stdout());
        String err = text(envelope.stderr());
        int[] budgets = budgets(out.length(), err.length(), maxText);
        List<McpSchema.Content> items = new ArrayList<>();
        if (!out.isEmpty()) {
            items.add(text(stream(envelope, "stdout", out, fenced(envelope.stdout()), budgets[0])));
        }
        if (!err.isEmpty()) {
            items.add(text(stream(envelope, "stderr", err, fenced(envelope.stderr()), budgets[1])));
        }
        return items;
    }

    /**
     * How many characters each of two texts may show when together they may show {@code max}: all
     * of both when they fit, else the shorter keeps up to half and the longer takes the rest.
     */
    static int[] budgets(int first, int second, int max) {
        if (first + second <= max) {
            return new int[] {first, second};
        }
        int half = max / 2;
        if (first <= half) {
            return new int[] {first, max - first};
        }
        if (second <= half) {
            return new int[] {max - second, second};
        }
        return new int[] {max - half, half};
    }

    private static String text(Envelope.@Nullable StreamView view) {
        return view == null || view.text() == null ? "" : view.text();
    }

    private static @Nullable String fenced(Envelope.@Nullable StreamView view) {
        return view == null ? null : view.fenced();
    }

    /** One stream's transcript {@code text}, as {@code fenced} already when it fits (and the envelope has that). */
    private static String stream(Envelope envelope, String name, String text, @Nullable String fenced, int budget) {
        String label =
                envelope.tool() + " " + (envelope.http() != null && name.equals("stdout") ? "response body" : name);
        if (text.length() <= budget) {
            return fenced != null ? fenced : Fence.wrap(label, text);
        }
        Cut cut = Cut.of(text, budget);
        int totalLines = lines(text);
        int next = cut.wholeLines() + 1;
        return Fence.wrap(label, cut.shown()) + VOICE + name + " cut after "
                + cut.shown().length()
                + " of " + text.length() + " characters (" + cut.wholeLines() + " of " + totalLines
                + " whole lines shown); "
                + "airlock_output with " + pointer(envelope.runId(), name, next, false) + " returns the rest.\n";
    }

    private static String pointer(String runId, String stream, int from, boolean sameSearch) {
        return "{\"runId\":\"" + runId + "\",\"stream\":\"" + stream + "\",\"from\":" + from
                + (sameSearch ? ",\"grep\":<the same term>" : "") + "}";
    }

    /** Lines in a transcript, counted as excerpts count them. */
    static int lines(String text) {
        if (text.isEmpty()) {
            return 0;
        }
        String[] all = text.split("\n", -1);
        return all[all.length - 1].isEmpty() ? all.length - 1 : all.length;
    }

    /**
     * The first {@code budget} characters of a text, cut after the last whole line that fits (or,
     * when not even one line fits, inside the first line, never between the two halves of a
     * surrogate pair).
     *
     * @param shown      the text shown
     * @param wholeLines how many whole lines it holds; the next excerpt starts after them
     */
    record Cut(String shown, int wholeLines) {

        static Cut of(String text, int budget) {
            int end = Math.min(budget, text.length());
            if (end > 0 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
                end--;
            }
            int lastBreak = end == 0 ? -1 : text.lastIndexOf('\n', end - 1);
            if (lastBreak < 0) {
                return new Cut(text.substring(0, end), 0);
            }
            String shown = text.substring(0, lastBreak + 1);
            return new Cut(shown, (int) shown.chars().filter(c -> c == '\n').count());
        }
    }

    /** A statement confined to one line: any line break or control character Airlock's facts carry becomes a space. */
    static String oneLine(String statement) {
        StringBuilder line = new StringBuilder(statement.length());
        statement.codePoints().forEach(cp -> line.appendCodePoint(Character.isISOControl(cp) ? ' ' : cp));
        return line.toString();
    }

    private static McpSchema.TextContent text(String text) {
        return McpSchema.TextContent.builder(text).build();
    }
}
