package dev.airlock.approval.notify;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a chat or e-mail message about one approval request says, the same for every channel:
 * Airlock's words (the event, the tenant, the tool, the agent, the rule, the expiry, the link) and
 * the action as rendered for approvers (untrusted: each channel writes it so that nothing in it is
 * read as markup, a mention or a link). Never output, never a secret.
 *
 * @param event     {@code approval.requested}, {@code approval.reminder}, {@code approval.escalated} or
 *                  {@code approval.decided}
 * @param runId     the run
 * @param tenant    its tenant
 * @param tool      the tool
 * @param agent     the requesting agent
 * @param action    the action's lines as approvers see them (audit view), at most {@link #MAX_LINES}
 * @param cut       how many more lines the action has than shown
 * @param rule      the policy rule that decided, or null
 * @param expiresAt when the request expires
 * @param outcome   for {@code approval.decided}: APPROVED, DENIED, EXPIRED or CANCELLED; otherwise null
 * @param console   the link to the request's page in the console
 */
record ApprovalMessage(
        String event,
        String runId,
        String tenant,
        String tool,
        String agent,
        List<String> action,
        int cut,
        @Nullable String rule,
        Instant expiresAt,
        @Nullable String outcome,
        String console) {

    /**
     * The tool's name as messages write it: an upstream MCP tool's name is its server's choice and may
     * read as a host name ({@code srv.login-example.io}), which mail clients turn into a link.
     */
    ApprovalMessage {
        tool = ChannelFormats.defang(tool);
    }

    /** Lines of the action a message shows at most; the console shows all. */
    static final int MAX_LINES = 20;

    /** Characters of one action line a message shows at most. */
    static final int MAX_LINE = 300;

    /** A message's headline, in Airlock's words (names only: tenant, tool and agent names are configured). */
    String headline() {
        return switch (event) {
            case "approval.reminder" -> "Reminder: " + tool + " in " + tenant + " still waits for approval";
            case "approval.escalated" -> "Escalated: " + tool + " in " + tenant + " waits for approval";
            case "approval.decided" ->
                tool + " in " + tenant + ": " + String.valueOf(outcome).toLowerCase(java.util.Locale.ROOT);
            default -> tool + " in " + tenant + " waits for approval";
        };
    }
}
