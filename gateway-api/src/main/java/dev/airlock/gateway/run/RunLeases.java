package dev.airlock.gateway.run;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.run.RunClaims;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps this replica's leases on the runs it executes (renewed every third of
 * {@code airlock.executor.lease-ttl}, and at once when a run arrives with a lease already that old; also
 * for results waiting in the spool), and ends as
 * {@code INTERRUPTED} every run whose lease ran out, whichever replica held it: that replica died
 * or lost the database for longer than the lease. An interrupted run is never executed again.
 * Leases are timed by the database's clock, so replicas whose clocks disagree still agree on them.
 * At start-up, runs this node was executing in an earlier life are interrupted at once. A run whose
 * lease this replica has not written for the TTL less a sixth and one check interval is stopped
 * before any peer can end it ({@link LeaseFence}).
 */
@ConditionalOnSide(Side.AGENT_API)
@Component
class RunLeases implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(RunLeases.class);
    private static final int BATCH = 100;

    private final RunExecutor executor;
    private final dev.airlock.persistence.scope.Scopes scopes;
    private final RunClaims claims;
    private final RunRepository runs;
    private final AuditLog audit;
    private final RunCompletions completions;
    private final RunMetrics metrics;
    private final TransactionTemplate transactions;
    private final Duration ttl;
    private final Clock clock;
    private final NodeLock nodeLock;
    private final LeaseFence fence;
    /**
     * Since when (monotonic) this replica has been in touch with the database without a gap longer than
     * a third of the TTL between two of its answers (to a renewal or a sweep); a gap, an error or a
     * statement that hung alike, starts it again.
     */
    private volatile long inTouchSince = System.nanoTime();

    /** When (monotonic) the database last answered a renewal or a sweep. */
    private volatile long lastAnswer = System.nanoTime();

    private final Duration checkInterval;

    /** Renewals, every check interval, from start-up until the context is destroyed (after the drain). */
    private volatile @Nullable DedicatedSchedule renewals;

    /**
     * The fence's check, on a thread apart from the renewals (a statement to a database that stopped answering
     * may hang for as long as the connection stays open), from start-up until the context is destroyed.
     */
    private volatile @Nullable DedicatedSchedule fenceCheck;

    /** When the leases were last renewed, by the monotonic clock (a wall clock's step must not delay a renewal). */
    private volatile long lastRenewal = System.nanoTime() - Duration.ofDays(1).toNanos();

    RunLeases(
            RunExecutor executor,
            RunClaims claims,
            RunRepository runs,
            AuditLog audit,
            RunCompletions completions,
            RunMetrics metrics,
            TransactionTemplate transactions,
            AgentSettings properties,
            Clock clock,
            dev.airlock.persistence.scope.Scopes scopes,
            NodeLock nodeLock,
            LeaseFence fence) {
        this.fence = fence;
        this.scopes = scopes;
        this.nodeLock = nodeLock;
        this.executor = executor;
        this.claims = claims;
        this.runs = runs;
        this.audit = audit;
        this.completions = completions;
        this.metrics = metrics;
        this.transactions = transactions;
        this.ttl = properties.executor().leaseTtl();
        this.clock = clock;
        this.checkInterval = properties.executor().leaseCheckInterval();
    }

    @jakarta.annotation.PreDestroy
    void stopRenewals() {
        if (renewals != null) {
            renewals.close();
        }
        if (fenceCheck != null) {
            fenceCheck.close();
        }
    }

    /**
     * Runs left RUNNING by this node before it last stopped have no process any more; they are this
     * node's only once no other live replica uses its node id (else the start stops).
     */
    @Override
    public void afterSingletonsInstantiated() {
        nodeLock.acquire();
        scopes.gatewayJobs().run(this::interruptLeftovers);
        renewals = DedicatedSchedule.every("lease-renewals", checkInterval, this::renew);
        fenceCheck = DedicatedSchedule.every("lease-fence", checkInterval, this::checkFence);
    }

    /**
     * Stops each run executing here whose lease this replica has not written for too long ({@link LeaseFence}):
     * a run that then reaches its start is refused ({@link RunLaunch}). Each stop on a virtual thread of its own, so
     * that one slow to stop (a call whose server is told of the cancel) holds up neither the others nor the next check.
     */
    void checkFence() {
        for (UUID runId : fence.takeLapsed(System.nanoTime())) {
            log.error(
                    "Run {}: its lease was last written more than {} ago (this replica cannot reach the database, its"
                            + " statements hang, or the run's row was held by another transaction); stopping it before"
                            + " another replica may end it INTERRUPTED",
                    runId,
                    fence.lapseAfter());
            Thread.ofVirtual().name("lease-fence-stop-" + runId).start(() -> {
                try {
                    executor.cancelHere(runId);
                } catch (RuntimeException e) {
                    log.error("Run {}: could not be stopped: {}", runId, e.toString());
                }
            });
        }
    }

    private void interruptLeftovers() {
        Set<UUID> mine = executor.leased();
        int interrupted = 0;
        for (UUID runId : claims.runningOn(executor.node())) {
            if (!mine.contains(runId) && interrupt(runId, false, "this node restarted")) {
                interrupted++;
            }
        }
        if (interrupted > 0) {
            log.warn(
                    "Interrupted {} run(s) that this node ({}) was executing when it last stopped",
                    interrupted,
                    executor.node());
        }
    }

    /**
     * Renews this node's leases when a third of the TTL has passed, or at once when a run arrived with a lease already
     * that old (its claim answered late) that no renewal has been answered about yet. On a thread of its own
     * ({@link DedicatedSchedule}), not the application's scheduler, whose one thread also runs the
     * sweep ({@link #sweep}: its interruptions wait for a tenant's audit lock, held through a long
     * retention purge), the purge itself and the other jobs, and which stops before the drain.
     */
    void renew() {
        scopes.gatewayJobs().run(this::renewLeases);
    }

    /** Records an answer from the database at {@code now}, after a gap or not. */
    private void answered(long now) {
        if (now - lastAnswer > ttl.dividedBy(3).toNanos()) {
            inTouchSince = now;
        }
        lastAnswer = now;
    }

    /** Ends runs whose leases ran out, and keeps the node id's lock. */
    @Scheduled(fixedDelayString = "${airlock.executor.lease-check-interval:PT0.5S}")
    void sweep() {
        scopes.gatewayJobs().run(this::checkLeases);
    }

    private void renewLeases() {
        try {
            long now = System.nanoTime();
            long third = ttl.dividedBy(3).toNanos();
            // Due every third of the TTL, and at once for a run that arrived with a lease already that old (a claim
            // answered late): the fence would otherwise stop it before the next renewal.
            if (now - lastRenewal >= third || fence.dueForRenewal(now - third)) {
                List<UUID> held = List.copyOf(executor.leased());
                if (!held.isEmpty()) {
                    RunClaims.Renewal renewal = claims.renewLeases(executor.node(), held, ttl);
                    // Only a statement the database answered counts (with nothing held, none is made).
                    answered(System.nanoTime());
                    // Each lease renewed now runs from the database's clock at or after this renewal began.
                    fence.renewed(renewal.renewed(), now);
                    // Passed over (a row another transaction holds) or lost alike: waiting for the next regular
                    // renewal.
                    fence.tried(held);
                    for (UUID runId : renewal.lost()) {
                        // Ended or taken over by another replica (this one paused past its lease, or lost
                        // the database for longer): its process must not go on with effects nobody sees.
                        if (executor.cancelHere(runId)) {
                            log.warn("Run {}: this replica no longer holds its lease; stopping its process", runId);
                        }
                    }
                }
                lastRenewal = now;
            }
        } catch (DataAccessException | TransactionException e) {
            log.debug("Leases not renewed: the database is unreachable ({})", e.getMessage());
        }
    }

    private void checkLeases() {
        List<UUID> expired = null;
        try {
            expired = claims.leaseExpired(BATCH, executor.node(), executor.leased());
        } catch (DataAccessException | TransactionException e) {
            log.debug("Leases not checked: the database is unreachable ({})", e.getMessage());
        }
        if (expired != null) {
            long now = System.nanoTime();
            answered(now);
            // A lease runs out by the database's clock while the database is down, or this replica's statements
            // hang, too: the other replicas have had no chance to renew theirs. Only a replica in touch with the
            // database for a whole TTL ends others' runs, by when every live replica has renewed.
            if (now - inTouchSince >= ttl.toNanos()) {
                for (UUID runId : expired) {
                    try {
                        interrupt(runId, true, "its lease ran out");
                    } catch (DataAccessException | TransactionException e) {
                        log.debug("Run {} not interrupted: {}", runId, e.getMessage());
                    }
                }
            }
        }
        try {
            // After the sweep (the renewals have a task of their own, which it never delays); at every
            // check, so that a session lost with the database is taken again as soon as it answers.
            nodeLock.keep();
        } catch (DataAccessException e) {
            log.debug("Node id lock not checked: the database is unreachable ({})", e.getMessage());
        }
    }

    /**
     * Ends the run INTERRUPTED if it is still RUNNING and, when {@code onlyIfExpired}, its lease ran
     * out by the database's clock when the row is locked (its replica may have renewed it since the
     * expired runs were listed).
     */
    private boolean interrupt(UUID runId, boolean onlyIfExpired, String why) {
        Boolean done = transactions.execute(status -> {
            RunRecord run = (onlyIfExpired ? runs.lockLeaseExpired(runId) : runs.lockRunning(runId)).orElse(null);
            if (run == null) {
                return false;
            }
            Instant now = clock.instant();
            Instant ranOut = onlyIfExpired && run.leaseUntil() != null ? run.leaseUntil() : now;
            String node = run.claimedBy();
            run.interrupt(ranOut, now);
            runs.save(run);
            audit.append(
                    run.tenant(),
                    AuditEventType.RUN_INTERRUPTED,
                    runId,
                    "airlock",
                    Map.of("node", String.valueOf(node), "leaseRanOut", ranOut.toString(), "why", why),
                    now);
            try (var context = dev.airlock.kernel.log.RunLog.of(runId, run.tenant())) {
                log.warn("Run {} INTERRUPTED: {} (node {}, lease until {})", runId, why, node, ranOut);
            }
            return true;
        });
        if (Boolean.TRUE.equals(done)) {
            metrics.leaseExpired();
            completions.completed(runId);
            return true;
        }
        return false;
    }
}
