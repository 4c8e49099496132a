package dev.airlock.approval.request;

import dev.airlock.kernel.config.TenantNames;
import dev.airlock.persistence.approval.ApprovalRequestRepository;
import dev.airlock.persistence.approval.ApprovalStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * Approval metrics: pending requests per tenant (counted in PostgreSQL when scraped, so every
 * replica reports the cluster's number) and how long runs waited for their outcome.
 */
@Component
class ApprovalMetrics {

    private final MeterRegistry meters;

    ApprovalMetrics(
            MeterRegistry meters,
            ApprovalRequestRepository requests,
            TenantNames tenantNames,
            dev.airlock.persistence.scope.Scopes scopes) {
        this.meters = meters;
        for (String tenant : tenantNames.names()) {
            var scope = scopes.eitherSide(java.util.List.of(tenant));
            Gauge.builder(
                            "airlock.approvals.pending",
                            () -> scope.call(() -> requests.countByTenantAndStatus(tenant, ApprovalStatus.PENDING)))
                    .description("Approval requests waiting for people")
                    .tag("tenant", tenant)
                    .register(meters);
        }
    }

    /** A run's approval request closed after {@code waited}. */
    void closed(String tenant, String outcome, Duration waited) {
        Timer.builder("airlock.approvals.wait")
                .description("Time from a run's request to its approval outcome")
                .tag("tenant", tenant)
                .tag("outcome", outcome)
                .register(meters)
                .record(waited);
    }
}
