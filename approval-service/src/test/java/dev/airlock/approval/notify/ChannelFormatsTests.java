package dev.airlock.approval.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the channel formats write of an action an agent padded or filled with links. */
class ChannelFormatsTests {

    private static ApprovalMessage message(List<String> action, int cut) {
        return new ApprovalMessage(
                "approval.requested",
                "run-1",
                "acme",
                "deploy",
                "bot",
                action,
                cut,
                null,
                Instant.EPOCH,
                null,
                "https://airlock.example.test/console/runs/run-1");
    }

    @Test
    void linksAreDefangedInEveryFormat() {
        ApprovalMessage message = message(List.of("argv[1]: see https://evil.example/x and www.evil.example"), 0);
        String slack = ChannelFormats.slack(message).toString();
        assertThat(slack).contains("https[:]//evil[.]example/x").contains("www[.]evil[.]example");
        assertThat(ChannelFormats.text(message))
                .contains("https[:]//evil[.]example/x")
                .doesNotContain("https://evil.example");
        assertThat(ChannelFormats.teams(message).toString()).doesNotContain("https://evil.example");
        assertThat(ChannelFormats.defang("FTP://host and ssh://x")).isEqualTo("FTP[:]//host and ssh[:]//x");
        assertThat(ChannelFormats.defang("Approve at airlock-login.example.io/console or mail ops@corp.example."))
                .as("bare host names and addresses, which mail clients link on their own")
                .isEqualTo("Approve at airlock-login[.]example[.]io/console or mail ops@corp[.]example.");
        assertThat(ChannelFormats.defang("10.0.0.1 and ../up")).isEqualTo("10[.]0[.]0[.]1 and ../up");
        ApprovalMessage upstreamTool = new ApprovalMessage(
                "approval.requested",
                "run-1",
                "acme",
                "srv.login-example.io",
                "bot",
                List.of(),
                0,
                null,
                java.time.Instant.parse("2026-12-02T12:00:00Z"),
                null,
                "https://airlock.example.test/console/runs/run-1");
        assertThat(ChannelFormats.subject(upstreamTool))
                .as("an upstream tool's name, its server's choice")
                .isEqualTo("[Airlock] srv[.]login-example[.]io in acme waits for approval");
        assertThat(ChannelFormats.text(upstreamTool)).doesNotContain("srv.login-example.io");
    }

    @Test
    void aPaddedActionSaysItIsCutAndStaysWithinSlacksLimits() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            lines.add("argv[" + i + "]: " + "x".repeat(400));
        }
        Map<String, Object> slack = ChannelFormats.slack(message(lines, 5));
        String text = slack.toString();
        assertThat(text).contains("NOT THE WHOLE ACTION").contains("Read the whole action in the console");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> blocks = (List<Map<String, Object>>) slack.get("blocks");
        blocks.stream()
                .filter(b -> b.get("text") instanceof Map<?, ?>)
                .map(b -> String.valueOf(((Map<?, ?>) b.get("text")).get("text")))
                .forEach(t -> assertThat(t.length()).isLessThanOrEqualTo(3000));
        assertThat(ChannelFormats.text(message(List.of("argv[0]: " + "y".repeat(500)), 0)))
                .as("one long line cut is said too")
                .contains("NOT THE WHOLE ACTION");
    }

    @Test
    void aSlackMessageKeepsTheWarningThatTheActionIsNotWholeWhateverItsEscapes() {
        // Two arguments of 290 '&' each (5 characters each escaped), then the one that matters.
        List<String> lines = List.of(
                "tool: wipe",
                "argv[1]: " + "&".repeat(290),
                "argv[2]: " + "&".repeat(290),
                "argv[3]: --delete-all-production-data");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> blocks = (List<Map<String, Object>>)
                ChannelFormats.slack(message(lines, 0)).get("blocks");
        String action = blocks.stream()
                .filter(b -> b.get("text") instanceof Map<?, ?> t
                        && String.valueOf(t.get("text")).startsWith("The action"))
                .map(b -> String.valueOf(((Map<?, ?>) b.get("text")).get("text")))
                .findFirst()
                .orElseThrow();
        assertThat(action)
                .hasSizeLessThanOrEqualTo(3000)
                .contains("NOT THE WHOLE ACTION")
                .doesNotEndWith("…");
    }

    @Test
    void aCutNeverSplitsAnEscapeOrACharacter() {
        // Slack's escapes are longer than what they stand for: a cut after escaping split them.
        assertThat(ChannelFormats.escapedPrefix("ab&c", 6)).isEqualTo("ab");
        assertThat(ChannelFormats.escapedPrefix("ab&c", 7)).isEqualTo("ab&");
        assertThat(ChannelFormats.escapedPrefix("<<", 7)).isEqualTo("<");
        assertThat(ChannelFormats.escapedPrefix("a\uD83D\uDE00b", 2)).isEqualTo("a");
        assertThat(ChannelFormats.escapedPrefix("plain", 99)).isEqualTo("plain");

        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            lines.add("argv[" + i + "]: " + "&<>".repeat(30));
        }
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> blocks = (List<Map<String, Object>>)
                ChannelFormats.slack(message(lines, 0)).get("blocks");
        List<String> texts = blocks.stream()
                .filter(b -> b.get("text") instanceof Map<?, ?>)
                .map(b -> String.valueOf(((Map<?, ?>) b.get("text")).get("text")))
                .toList();
        // The action is budgeted in escaped characters: cut by whole lines, with its warning kept.
        assertThat(texts)
                .anySatisfy(t -> assertThat(t)
                        .contains("argv[0]: &amp;&lt;&gt;")
                        .endsWith("NOT THE WHOLE ACTION: 14 more line(s) cut here. Read the whole action in the console"
                                + " before deciding."));
        for (String text : texts) {
            assertThat(text.length()).isLessThanOrEqualTo(3000);
            assertThat(text.replaceAll("&(amp|lt|gt);", ""))
                    .as("every & begins a whole escape")
                    .doesNotContain("&");
        }
    }
}
