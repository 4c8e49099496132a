package dev.airlock.approval.request;

import dev.airlock.persistence.approval.ApprovalSettlement;
import dev.airlock.persistence.event.ApprovalClosed;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Applies an approval outcome to its run in the same transaction as the deciding decision (through
 * the database function {@code airlock.settle_approval}, since the human side's role may not
 * update runs), and
 * announces an approval with {@code NOTIFY} in that transaction: the agent side's listener, on
 * this replica or another, starts it at once (and its poll finds it if no listener heard).
 * The approval rows themselves are never touched by execution.
 */
@Component
class ApprovalOutcomes {

    private static final Logger log = LoggerFactory.getLogger(ApprovalOutcomes.class);

    private final RunRepository runs;
    private final ApprovalSettlement settlement;
    private final Clock clock;
    private final ApprovalMetrics metrics;

    ApprovalOutcomes(RunRepository runs, ApprovalSettlement settlement, Clock clock, ApprovalMetrics metrics) {
        this.metrics = metrics;
        this.runs = runs;
        this.settlement = settlement;
        this.clock = clock;
    }

    @TransactionalEventListener(phase = TransactionPhase.BEFORE_COMMIT)
    void apply(ApprovalClosed closed) {
        if (closed.status() == dev.airlock.persistence.approval.ApprovalStatus.CANCELLED) {
            // The agent's cancel moved its run itself (on the agent side, which settles nothing): only the
            // announcements follow a cancellation.
            return;
        }
        try (var context = dev.airlock.kernel.log.RunLog.of(closed.runId(), closed.tenant())) {
            applyToRun(closed);
        }
    }

    private void applyToRun(ApprovalClosed closed) {
        RunRecord run = runs.findByIdAndTenant(closed.runId(), closed.tenant()).orElseThrow();
        // The human side may not update runs: the database moves the run as the closed request says,
        // which it must see closed first (the decision is still in the persistence context).
        runs.flush();
        String state = settlement.settle(closed.runId(), clock.instant()).orElse(null);
        if (state == null) {
            // Only an expiry finds its run ended another way (an old cancelled run): closing the request is all there
            // is to do.
            log.info(
                    "Run {}: approval request {} after the run had already ended {}",
                    run.id(),
                    closed.status(),
                    run.state());
            return;
        }
        if (closed.status() == dev.airlock.persistence.approval.ApprovalStatus.APPROVED) {
            settlement.announceApproved(closed.tenant());
        }
        metrics.closed(
                closed.tenant(), closed.status().name(), java.time.Duration.between(run.createdAt(), clock.instant()));
        log.info("Run {}: approval {}", closed.runId(), closed.status());
    }
}
