package dev.airlock.approval.notify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How an {@link ApprovalMessage} is written for each kind of channel, so that nothing an agent
 * controls (the action's arguments) is read as markup, a mention or a link:
 *
 * <ul>
 *   <li>Slack (Block Kit, incoming webhook): the untrusted lines only in {@code plain_text} (never
 *       parsed as mrkdwn), with {@code &}, {@code <} and {@code >} escaped as Slack asks, so
 *       {@code <!channel>} or {@code <@U123>} stay text; Airlock's own words in the fallback text.
 *   <li>Microsoft Teams (Adaptive Card, workflow webhook): the untrusted lines only in
 *       {@code TextRun}s of a {@code RichTextBlock}, which Teams never reads as markdown.
 *   <li>E-mail: a text part, and an HTML part with every character that is markup escaped.
 * </ul>
 *
 * A button or link only opens the request's console page: deciding needs a sign-in there.
 */
final class ChannelFormats {

    private ChannelFormats() {}

    /** The Slack message (the body of an incoming webhook's POST). */
    static Map<String, Object> slack(ApprovalMessage message) {
        List<Object> blocks = new ArrayList<>();
        blocks.add(Map.of("type", "header", "text", plain(message.headline(), 150)));
        List<Object> fields = new ArrayList<>();
        fields.add(plain("Tenant: " + message.tenant(), 2000));
        fields.add(plain("Tool: " + message.tool(), 2000));
        fields.add(plain("Agent: " + message.agent(), 2000));
        fields.add(plain("Expires: " + message.expiresAt(), 2000));
        blocks.add(Map.of("type", "section", "fields", fields));
        if (message.rule() != null) {
            blocks.add(Map.of("type", "section", "text", plain("Decided by policy: " + message.rule(), 3000)));
        }
        if (!message.action().isEmpty()) {
            // Budgeted in escaped characters: Slack's escapes are longer than what they stand for, and a
            // section cut at 3,000 would lose the warning that the action is not whole.
            blocks.add(Map.of(
                    "type",
                    "section",
                    "text",
                    plain(actionText(message, line -> slackEscape(line).length()), 3000)));
        }
        blocks.add(Map.of(
                "type",
                "actions",
                "elements",
                List.of(Map.of("type", "button", "text", plain("Open in the console", 75), "url", message.console()))));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("text", slackEscape(message.headline()));
        body.put("blocks", blocks);
        return body;
    }

    /** The Teams message (the body of a workflow webhook's POST): one Adaptive Card. */
    static Map<String, Object> teams(ApprovalMessage message) {
        List<Object> body = new ArrayList<>();
        body.add(textRuns(List.of(message.headline()), true));
        body.add(textRuns(
                List.of(
                        "Tenant: " + message.tenant(),
                        "Tool: " + message.tool(),
                        "Agent: " + message.agent(),
                        "Expires: " + message.expiresAt()),
                false));
        if (message.rule() != null) {
            body.add(textRuns(List.of("Decided by policy: " + message.rule()), false));
        }
        if (!message.action().isEmpty()) {
            body.add(textRuns(actionLines(message), false));
        }
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("type", "AdaptiveCard");
        card.put("$schema", "http://adaptivecards.io/schemas/adaptive-card.json");
        card.put("version", "1.4");
        card.put("body", body);
        card.put(
                "actions",
                List.of(Map.of("type", "Action.OpenUrl", "title", "Open in the console", "url", message.console())));
        Map<String, Object> attachment = new LinkedHashMap<>();
        attachment.put("contentType", "application/vnd.microsoft.card.adaptive");
        attachment.put("content", card);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("type", "message");
        envelope.put("attachments", List.of(attachment));
        return envelope;
    }

    /** The e-mail's subject: Airlock's words and configured names only, on one line. */
    static String subject(ApprovalMessage message) {
        return "[Airlock] " + message.headline().replaceAll("[\\r\\n\\t]", " ");
    }

    /** The e-mail's text part. */
    static String text(ApprovalMessage message) {
        StringBuilder text = new StringBuilder(message.headline()).append("\n\n");
        text.append("Tenant: ").append(message.tenant()).append('\n');
        text.append("Tool: ").append(message.tool()).append('\n');
        text.append("Agent: ").append(message.agent()).append('\n');
        text.append("Expires: ").append(message.expiresAt()).append('\n');
        if (message.rule() != null) {
            text.append("Decided by policy: ").append(message.rule()).append('\n');
        }
        if (!message.action().isEmpty()) {
            text.append('\n').append(actionText(message)).append('\n');
        }
        text.append("\nDecide in the console (sign-in required): ")
                .append(message.console())
                .append('\n');
        return text.toString();
    }

    /** The e-mail's HTML part: the same, every character that is markup escaped. */
    static String html(ApprovalMessage message) {
        return "<!DOCTYPE html><html lang=\"en\"><body><pre style=\"white-space:pre-wrap\">"
                + htmlEscape(text(message)
                        .replace("\nDecide in the console (sign-in required): " + message.console() + "\n", "\n"))
                + "</pre><p><a href=\"" + htmlEscape(message.console())
                + "\">Open the request in the console</a>"
                + " (sign-in required)</p></body></html>";
    }

    private static String actionText(ApprovalMessage message) {
        return actionText(message, String::length);
    }

    private static String actionText(ApprovalMessage message, java.util.function.ToIntFunction<String> size) {
        return String.join("\n", actionLines(message, size));
    }

    private static List<String> actionLines(ApprovalMessage message) {
        return actionLines(message, String::length);
    }

    /** The action's lines within {@link #ACTION_BUDGET} characters as {@code size} counts them, and the warning when cut. */
    private static List<String> actionLines(ApprovalMessage message, java.util.function.ToIntFunction<String> size) {
        List<String> lines = new ArrayList<>();
        lines.add("The action (characters that are not printable ASCII as \\xNN; links defanged):");
        boolean cutLine = false;
        int budget = ACTION_BUDGET;
        int shown = 0;
        for (String line : message.action()) {
            String written = defang(line);
            if (written.length() > ApprovalMessage.MAX_LINE) {
                written = written.substring(0, ApprovalMessage.MAX_LINE) + " …";
                cutLine = true;
            }
            int length = size.applyAsInt(written);
            if (length + 1 > budget) {
                break;
            }
            budget -= length + 1;
            lines.add(written);
            shown++;
        }
        int more = message.cut() + message.action().size() - shown;
        if (more > 0 || cutLine) {
            lines.add("NOT THE WHOLE ACTION: " + (more > 0 ? more + " more line(s)" : "long lines")
                    + " cut here. Read the whole action in the console before deciding.");
        }
        return lines;
    }

    /** Characters of the action a chat message holds at most (Slack's section limit is 3000). */
    static final int ACTION_BUDGET = 2400;

    private static final java.util.regex.Pattern SCHEME =
            java.util.regex.Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*)://");
    private static final java.util.regex.Pattern DOT =
            java.util.regex.Pattern.compile("(?<=[\\p{L}\\p{N}_-])\\.(?=[\\p{L}\\p{N}])");

    /**
     * An argument as a chat or mail client cannot turn into a link: {@code https://} becomes
     * {@code https[:]//} and every dot between letters or digits {@code [.]}, so neither a URL nor a
     * bare host name ({@code airlock-login.example.io/console}, which mail clients link on their own)
     * nor an address is a link; the console shows it as it is.
     */
    static String defang(String text) {
        return DOT.matcher(SCHEME.matcher(text).replaceAll("$1[:]//")).replaceAll("[.]");
    }

    private static Map<String, Object> plain(String text, int limit) {
        String escaped = slackEscape(text);
        if (escaped.length() > limit) {
            escaped = slackEscape(escapedPrefix(text, limit - 1)) + "…";
        }
        return Map.of("type", "plain_text", "text", escaped, "emoji", false);
    }

    /**
     * The longest prefix of {@code text} whose escaped form is at most {@code limit} characters,
     * cut between whole characters: never inside an escape ({@code &amp;}) or a surrogate pair.
     */
    static String escapedPrefix(String text, int limit) {
        int length = 0;
        int end = 0;
        while (end < text.length()) {
            int c = text.codePointAt(end);
            int cost = switch (c) {
                case '&' -> 5;
                case '<', '>' -> 4;
                default -> Character.charCount(c);
            };
            if (length + cost > limit) {
                break;
            }
            length += cost;
            end += Character.charCount(c);
        }
        return text.substring(0, end);
    }

    /** Slack's own escaping: the three characters its messages read as markup. */
    static String slackEscape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static Map<String, Object> textRuns(List<String> lines, boolean bold) {
        List<Object> inlines = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("type", "TextRun");
            run.put("text", lines.get(i) + (i < lines.size() - 1 ? "\n" : ""));
            if (bold) {
                run.put("weight", "Bolder");
            }
            inlines.add(run);
        }
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("type", "RichTextBlock");
        block.put("inlines", inlines);
        return block;
    }

    /**
     * Text as HTML character data and attribute values: the five characters that are markup,
     * escaped. (Spring's HtmlUtils is a web type, which the notification rules may not use.)
     */
    static String htmlEscape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
