package dev.airlock.gateway.approval;

import dev.airlock.approval.request.ApprovalService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Expires approval requests whose time is up (one replica at a time, by advisory lock). */
@Component
class ApprovalExpiry {

    private static final Logger log = LoggerFactory.getLogger(ApprovalExpiry.class);

    private final ApprovalService approvals;

    ApprovalExpiry(ApprovalService approvals) {
        this.approvals = approvals;
    }

    @Scheduled(fixedDelayString = "${airlock.approvals.expiry-interval:PT5S}")
    void expireDue() {
        int expired = approvals.expireDue();
        if (expired > 0) {
            log.info("Expired {} approval request(s)", expired);
        }
    }
}
