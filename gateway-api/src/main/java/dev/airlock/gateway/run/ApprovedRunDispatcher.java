package dev.airlock.gateway.run;

import dev.airlock.gateway.limits.TenantLimits;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.config.TenantNames;
import dev.airlock.persistence.run.RunClaims;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import dev.airlock.persistence.scope.Scopes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Claims approved runs for this replica and hands them to the {@link RunExecutor}; passes on
 * cancel requests made on other replicas. {@link #startApproved} is the one path by which an
 * approved run starts, whether the approval was announced ({@link RunNotificationListener}) or is
 * found by the poll (approved while no listener heard, or waiting for a free slot).
 */
@Component
class ApprovedRunDispatcher {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ApprovedRunDispatcher.class);

    private final RunExecutor executor;
    private final RunClaims claims;
    private final RunRepository runs;
    private final TenantLimits limits;
    private final Scopes scopes;
    private final TenantNames tenants;
    private final Clock clock;
    private final boolean agentSide;
    private final java.time.Duration cancelPollInterval;
    private volatile @Nullable DedicatedSchedule cancelPoll;

    ApprovedRunDispatcher(
            RunExecutor executor,
            RunClaims claims,
            RunRepository runs,
            TenantLimits limits,
            Scopes scopes,
            AirlockProperties properties,
            TenantNames tenants,
            Clock clock,
            dev.airlock.gateway.settings.AgentSettings settings) {
        this.executor = executor;
        this.claims = claims;
        this.runs = runs;
        this.limits = limits;
        this.scopes = scopes;
        this.tenants = tenants;
        this.clock = clock;
        this.agentSide = properties.roles().contains(Side.AGENT_API);
        this.cancelPollInterval = settings.executor().cancelPollInterval();
    }

    /** Polls for cancels asked on other replicas; on a thread of its own, so that it goes on through the drain. */
    @jakarta.annotation.PostConstruct
    void startCancelPoll() {
        if (agentSide) {
            cancelPoll = DedicatedSchedule.every("cancel-poll", cancelPollInterval, this::honourCancelRequests);
        }
    }

    @jakarta.annotation.PreDestroy
    void stopCancelPoll() {
        if (cancelPoll != null) {
            cancelPoll.close();
        }
    }

    /** Picks up approved runs that no announcement started (approved later, or waiting for a free slot). */
    @Scheduled(fixedDelayString = "${airlock.executor.poll-interval:PT0.5S}")
    void claimApproved() {
        if (executor.draining() || !agentSide) {
            return;
        }
        // One look over every configured tenant, then a scope only for those with work: the poll
        // costs one query whether 1 or 100 tenants are configured.
        try {
            scopes.gatewayJobs().call(claims::tenantsWithApproved).forEach(this::startApproved);
        } catch (org.springframework.dao.DataAccessException | org.springframework.transaction.TransactionException e) {
            // The database away (readiness says so), every poll interval: the next poll tries again.
            log.debug("Approved runs not looked for: the database is unreachable ({})", e.getMessage());
        }
    }

    /** Claims and starts the tenant's approved runs, as many as it has free slots. */
    void startApproved(String tenant) {
        if (executor.draining() || !agentSide || !tenants.contains(tenant)) {
            return; // a NOTIFY payload names a tenant; anyone may NOTIFY, so only configured ones count
        }
        try (var scope = scopes.agent(tenant).open()) {
            int wanted = Math.min(limits.freeSlots(tenant), claims.countApproved(tenant));
            List<TenantLimits.Permit> permits = new ArrayList<>();
            for (int free = wanted; free > 0; free--) {
                limits.tryExecute(tenant).ifPresent(permits::add);
            }
            if (permits.isEmpty()) {
                return;
            }
            try {
                Instant now = clock.instant();
                // The claim's lease runs from the database's clock when its statement runs, at or after this.
                long claimStarted = System.nanoTime();
                for (UUID runId : claims.claimNext(
                        executor.node(), tenant, permits.size(), now, executor.leaseTtl(), executor.sandbox())) {
                    TenantLimits.Permit permit = permits.removeLast();
                    try {
                        RunRecord run = runs.findById(runId).orElseThrow();
                        executor.start(Execution.of(run), permit, claimStarted);
                    } catch (RuntimeException e) {
                        // Claimed, and not started here: its lease runs out and any replica ends it INTERRUPTED. The
                        // batch's other runs are still started.
                        permit.close();
                        log.error("Run {}: claimed but not started ({})", runId, e.toString());
                    }
                }
            } finally {
                permits.forEach(TenantLimits.Permit::close);
            }
        }
    }

    /** Stops runs executing here that a request on another replica asked to cancel. */
    void honourCancelRequests() {
        if (!agentSide || executor.idle()) {
            return;
        }
        scopes.gatewayJobs().call(() -> claims.cancelRequested(executor.node())).forEach(executor::cancelHere);
    }
}
