package dev.airlock.approval.request;

import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Expires approval requests whose time is up. Each request is expired on its own, so one that
 * cannot be expired is logged and counted ({@code airlock.approvals.expiry.failures}) and never
 * holds up the others; replicas skip the rows another replica is expiring.
 */
@ConditionalOnSide(Side.CONSOLE)
@Component
class ApprovalExpiry {

    private static final Logger log = LoggerFactory.getLogger(ApprovalExpiry.class);

    private final ApprovalService approvals;
    private final dev.airlock.persistence.scope.Scopes scopes;
    private final Counter expired;
    private final Counter failures;

    ApprovalExpiry(ApprovalService approvals, MeterRegistry meters, dev.airlock.persistence.scope.Scopes scopes) {
        this.scopes = scopes;
        this.approvals = approvals;
        this.expired = Counter.builder("airlock.approvals.expired")
                .description("Approval requests expired")
                .register(meters);
        this.failures = Counter.builder("airlock.approvals.expiry.failures")
                .description("Approval requests the expiry job could not expire")
                .register(meters);
    }

    @Scheduled(fixedDelayString = "${airlock.approvals.expiry-interval:PT5S}")
    void expireDue() {
        ApprovalService.ExpiryReport report;
        try {
            report = scopes.consoleJobs().call(approvals::expireDue);
        } catch (org.springframework.dao.DataAccessException | org.springframework.transaction.TransactionException e) {
            // The database away (readiness says so): one line per pass, not a stack trace; the next pass tries again.
            log.warn("Approval requests not expired this time: {}", e.getMessage());
            return;
        }
        expired.increment(report.expired());
        failures.increment(report.failed());
        if (report.expired() > 0) {
            log.info("Expired {} approval request(s)", report.expired());
        }
        if (report.failed() > 0) {
            log.warn("{} approval request(s) could not be expired this time; see the errors above", report.failed());
        }
    }
}
