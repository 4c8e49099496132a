package dev.airlock.approval.notify;

import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.persistence.scope.Scopes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Reminds and escalates pending approval requests on the console side, as often as it expires
 * them ({@code airlock.approvals.expiry-interval}); every replica may run it, the delivery claims
 * keep each message to one.
 */
@ConditionalOnSide(Side.CONSOLE)
@Component
class ChannelReminders {

    private static final Logger log = LoggerFactory.getLogger(ChannelReminders.class);

    private final ApprovalChannels channels;
    private final Scopes scopes;

    ChannelReminders(ApprovalChannels channels, Scopes scopes) {
        this.channels = channels;
        this.scopes = scopes;
    }

    @Scheduled(fixedDelayString = "${airlock.approvals.expiry-interval:PT5S}")
    void remindAndEscalate() {
        try {
            scopes.consoleJobs().run(channels::remindAndEscalate);
        } catch (RuntimeException e) {
            log.error("Reminding and escalating pending approval requests failed; trying again on the next pass", e);
        }
    }
}
