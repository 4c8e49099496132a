package dev.airlock.gateway.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.sanitizer.Fence;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The MCP answer for each outcome of a run, and where long output is cut. */
class CallResultsTests {

    private static final String ID = "01a229d7-6325-7543-9692-f619f9939358";
    private final CallResults results = new CallResults(40, Duration.ofSeconds(50), "https://airlock.example.com/");

    private static Envelope.StreamView stream(String tool, String name, String text) {
        return new Envelope.StreamView(
                text,
                Fence.wrap(tool + " " + name, text),
                text.length(),
                text.length(),
                false,
                true,
                "0".repeat(64),
                Map.of(),
                0);
    }

    private static Envelope envelope(
            String state,
            Integer exitCode,
            String termination,
            Instant startedAt,
            String failure,
            boolean approvalRequired,
            String stdout,
            String stderr) {
        return new Envelope(
                ID,
                "acme",
                "bot",
                "tool",
                state,
                Instant.EPOCH,
                new Envelope.Approval(approvalRequired, approvalRequired ? "PENDING" : "NOT_REQUIRED", List.of(), null),
                new Envelope.ProcessFacts(
                        exitCode, termination, startedAt, null, failure, startedAt == null ? null : "bubblewrap"),
                null,
                null,
                stdout == null ? null : stream("tool", "stdout", stdout),
                stderr == null ? null : stream("tool", "stderr", stderr),
                null);
    }

    private static List<String> texts(McpSchema.CallToolResult result) {
        return result.content().stream()
                .map(c -> ((McpSchema.TextContent) c).text())
                .toList();
    }

    @Test
    void exitZeroIsTheOneOutcomeThatIsNotAnErrorAndCarriesOnlyTheFencedStreams() {
        McpSchema.CallToolResult result = results.run(
                envelope("COMPLETED", 0, "EXITED", Instant.EPOCH, null, false, "ok\n", ""), Map.of("runId", ID), 0);
        assertThat(result.isError()).isFalse();
        assertThat(texts(result)).containsExactly(Fence.wrap("tool stdout", "ok\n"));
        assertThat(result.structuredContent()).isEqualTo(Map.of("runId", ID));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            COMPLETED | 2  | EXITED       | true  | -                      | false | run 01a229d7-6325-7543-9692-f619f9939358 (tool) exited with code 2.
            COMPLETED | -  | OUTPUT_LIMIT | true  | -                      | false | run 01a229d7-6325-7543-9692-f619f9939358 (tool) was killed: a stream passed its output limit (stdout 2 bytes, stderr 0 bytes observed).
            FAILED    | -  | SPAWN_FAILED | false | missing secret X\\nnow | false | run 01a229d7-6325-7543-9692-f619f9939358 (tool) could not be started: missing secret X now.
            TIMED_OUT | -  | TIMEOUT      | true  | -                      | false | run 01a229d7-6325-7543-9692-f619f9939358 (tool) timed out and was killed.
            CANCELLED | -  | CANCELLED    | true  | -                      | false | run 01a229d7-6325-7543-9692-f619f9939358 (tool) was cancelled and killed.
            CANCELLED | -  | -            | false | -                      | true  | run 01a229d7-6325-7543-9692-f619f9939358 (tool) was cancelled before it started.
            DENIED    | -  | -            | false | -                      | true  | run 01a229d7-6325-7543-9692-f619f9939358 (tool) was denied by an approver; it did not run.
            DENIED    | -  | -            | false | -                      | false | run 01a229d7-6325-7543-9692-f619f9939358 (tool) was refused by the tool's policy; it did not run.
            EXPIRED   | -  | -            | false | -                      | true  | run 01a229d7-6325-7543-9692-f619f9939358 (tool) expired: no approver decided in time; it did not run.
            """)
    void everyOtherOutcomeIsAnErrorWithOneLineOfAirlocksFacts(
            String state,
            Integer exit,
            String termination,
            boolean started,
            String failure,
            boolean approval,
            String statement) {
        boolean ran = started;
        McpSchema.CallToolResult result = results.run(
                envelope(
                        state,
                        exit,
                        termination,
                        started ? Instant.EPOCH : null,
                        failure == null ? null : failure.replace("\\n", "\n"),
                        approval,
                        ran ? "o\n" : null,
                        ran ? "" : null),
                Map.of(),
                0);
        assertThat(result.isError()).isTrue();
        assertThat(texts(result).getFirst()).isEqualTo("Airlock: " + statement).doesNotContain("\n");
        assertThat(texts(result)).hasSize(ran ? 2 : 1);
    }

    @Test
    void aRunWaitingForPeopleIsNotAnErrorAndSaysHowToGetTheOutcome() {
        McpSchema.CallToolResult pending =
                results.run(envelope("PENDING_APPROVAL", null, null, null, null, true, null, null), Map.of(), 2);
        assertThat(pending.isError()).isFalse();
        assertThat(texts(pending))
                .containsExactly("Airlock: run " + ID + " (tool) is waiting for approval: a human must approve"
                        + " this exact action (2 more approvals still needed) before it runs; nothing has run yet. Approvers decide at"
                        + " https://airlock.example.com/console/runs/" + ID + ". Call airlock_status with {\"runId\":\""
                        + ID + "\"} to get"
                        + " the outcome (it waits up to 50 s for the run to end).");
        McpSchema.CallToolResult running =
                results.run(envelope("RUNNING", null, null, Instant.EPOCH, null, false, null, null), Map.of(), 0);
        assertThat(running.isError()).isFalse();
        assertThat(texts(running).getFirst())
                .contains(
                        "has not ended yet (state RUNNING) after 50 s.", "airlock_status", "airlock_cancel stops it.");
    }

    @Test
    void longOutputIsCutAtALineBoundaryWithAPointerOutsideTheFence() {
        String out = "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n";
        McpSchema.CallToolResult result =
                results.run(envelope("COMPLETED", 0, "EXITED", Instant.EPOCH, null, false, out, ""), Map.of(), 0);
        assertThat(texts(result))
                .containsExactly(Fence.wrap("tool stdout", "line 1\nline 2\nline 3\nline 4\nline 5\n")
                        + "Airlock: stdout cut after 35 of 49 characters (5 of 7 whole lines shown); airlock_output with {\"runId\":\""
                        + ID
                        + "\",\"stream\":\"stdout\",\"from\":6} returns the rest.\n");
    }

    @Test
    void twoLongStreamsShareTheBudgetAndAShortOneKeepsAllItHas() {
        assertThat(CallResults.budgets(10, 10, 40)).containsExactly(10, 10);
        assertThat(CallResults.budgets(100, 10, 40)).containsExactly(30, 10);
        assertThat(CallResults.budgets(10, 100, 40)).containsExactly(10, 30);
        assertThat(CallResults.budgets(100, 100, 40)).containsExactly(20, 20);
        assertThat(CallResults.budgets(100, 100, 41)).containsExactly(21, 20);
    }

    @Test
    void aLineLongerThanTheBudgetIsCutInsideItButNeverInsideASurrogatePair() {
        assertThat(CallResults.Cut.of("abcdef\ngh\n", 4)).isEqualTo(new CallResults.Cut("abcd", 0));
        assertThat(CallResults.Cut.of("ab\uD83D\uDE00cd\n", 3)).isEqualTo(new CallResults.Cut("ab", 0));
        assertThat(CallResults.Cut.of("ab\ncd\n", 5)).isEqualTo(new CallResults.Cut("ab\n", 1));
        assertThat(CallResults.Cut.of("ab\ncd\n", 6)).isEqualTo(new CallResults.Cut("ab\ncd\n", 2));
        assertThat(CallResults.lines("a\nb")).isEqualTo(2);
        assertThat(CallResults.lines("a\nb\n")).isEqualTo(2);
        assertThat(CallResults.lines("")).isZero();
    }
}
