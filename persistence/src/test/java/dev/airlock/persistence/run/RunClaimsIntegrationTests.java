package dev.airlock.persistence.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.persistence.Fixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.orm.ObjectOptimisticLockingFailureException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The claim SQL that lets one gateway replica, and only one, execute an approved run: oldest
 * first, within the tenant, skipping rows another replica is claiming at that moment instead of
 * waiting for them, and bumping the version so that no stale copy of the run can undo a claim.
 */
@SpringBootTest
class RunClaimsIntegrationTests {

    /** A replica's clock, far from the database's: leases must not depend on it. */
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Autowired
    RunClaims claims;

    @Autowired
    RunRepository runs;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    PlatformTransactionManager transactions;

    Fixtures fixtures;
    String tenant;
    ExecutorService threads = Executors.newFixedThreadPool(2);

    @BeforeEach
    void setUp() {
        fixtures = new Fixtures(jdbc);
        tenant = fixtures.tenant();
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void claimsTheTenantsOldestApprovedRunsAndMarksThemRunningOnTheNode() {
        UUID second = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(20));
        UUID first = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(30));
        UUID third = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(10));
        UUID pending = fixtures.run(tenant, RunState.PENDING_APPROVAL, NOW.minusSeconds(40));
        UUID otherTenants = fixtures.run(fixtures.tenant(), RunState.APPROVED, NOW.minusSeconds(50));
        assertThat(claims.countApproved(tenant)).isEqualTo(3);

        assertThat(claims.claimNext("node-a", tenant, 2, NOW, LEASE, SandboxKind.BUBBLEWRAP))
                .containsExactlyInAnyOrder(first, second);
        for (UUID claimed : List.of(first, second)) {
            RunRecord run = runs.findById(claimed).orElseThrow();
            assertThat(run.state()).isEqualTo(RunState.RUNNING);
            assertThat(run.claimedBy()).isEqualTo("node-a");
            assertThat(run.startedAt()).isEqualTo(NOW);
            assertThat(fixtures.version(claimed)).isEqualTo(1);
        }
        assertThat(fixtures.state(third)).isEqualTo("APPROVED");
        assertThat(fixtures.state(pending)).isEqualTo("PENDING_APPROVAL");
        assertThat(fixtures.state(otherTenants)).isEqualTo("APPROVED");
        assertThat(claims.countApproved(tenant)).isEqualTo(1);
        assertThat(claims.claimNext("node-b", tenant, 5, NOW, LEASE, SandboxKind.BUBBLEWRAP))
                .containsExactly(third);
        assertThat(claims.claimNext("node-b", tenant, 5, NOW, LEASE, SandboxKind.BUBBLEWRAP))
                .isEmpty();
    }

    @Test
    void namesTheTenantsWithApprovedRunsOnly() {
        String approved = fixtures.tenant();
        String parked = fixtures.tenant();
        fixtures.run(approved, RunState.APPROVED, NOW);
        fixtures.run(approved, RunState.APPROVED, NOW.minusSeconds(5));
        fixtures.run(parked, RunState.PENDING_APPROVAL, NOW);
        fixtures.run(parked, RunState.COMPLETED, NOW);
        assertThat(claims.tenantsWithApproved())
                .contains(approved)
                .doesNotContain(parked)
                .doesNotHaveDuplicates();
    }

    @Test
    void ofTwoReplicasClaimingOneRunAtOnceOneGetsItAndTheOtherDoesNotWait() throws Exception {
        UUID run = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(30));
        CountDownLatch claimedByA = new CountDownLatch(1);
        CountDownLatch commitA = new CountDownLatch(1);
        // Replica A claims inside a transaction that it keeps open, holding the row.
        Future<List<UUID>> a = threads.submit(() -> new TransactionTemplate(transactions).execute(status -> {
            List<UUID> claimed = claims.claimNext("node-a", tenant, 1, NOW, LEASE, SandboxKind.BUBBLEWRAP);
            claimedByA.countDown();
            await(commitA);
            return claimed;
        }));
        assertThat(claimedByA.await(30, TimeUnit.SECONDS)).isTrue();
        // Replica B claims meanwhile: it must skip the row A holds, not queue behind it.
        Future<List<UUID>> b =
                threads.submit(() -> claims.claimNext("node-b", tenant, 1, NOW, LEASE, SandboxKind.BUBBLEWRAP));
        assertThat(b.get(10, TimeUnit.SECONDS)).as("B, while A holds the run").isEmpty();
        commitA.countDown();
        assertThat(a.get(30, TimeUnit.SECONDS)).containsExactly(run);
        assertThat(claims.claimNext("node-b", tenant, 1, NOW, LEASE, SandboxKind.BUBBLEWRAP))
                .as("B, after A committed")
                .isEmpty();
        assertThat(runs.findById(run).orElseThrow().claimedBy()).isEqualTo("node-a");
    }

    @Test
    void aSecondReplicaSkipsTheRunBeingClaimedAndTakesTheNextOne() throws Exception {
        UUID older = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(30));
        UUID newer = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(20));
        CountDownLatch claimedByA = new CountDownLatch(1);
        CountDownLatch commitA = new CountDownLatch(1);
        Future<List<UUID>> a = threads.submit(() -> new TransactionTemplate(transactions).execute(status -> {
            List<UUID> claimed = claims.claimNext("node-a", tenant, 1, NOW, LEASE, SandboxKind.BUBBLEWRAP);
            claimedByA.countDown();
            await(commitA);
            return claimed;
        }));
        assertThat(claimedByA.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(CompletableFuture.supplyAsync(
                                () -> claims.claimNext("node-b", tenant, 1, NOW, LEASE, SandboxKind.BUBBLEWRAP),
                                threads)
                        .get(10, TimeUnit.SECONDS))
                .containsExactly(newer);
        commitA.countDown();
        assertThat(a.get(30, TimeUnit.SECONDS)).containsExactly(older);
        assertThat(runs.findById(older).orElseThrow().claimedBy()).isEqualTo("node-a");
        assertThat(runs.findById(newer).orElseThrow().claimedBy()).isEqualTo("node-b");
    }

    @Test
    void aStaleCopyOfAClaimedRunCannotCancelIt() {
        UUID id = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(30));
        RunRecord stale = runs.findById(id).orElseThrow();
        assertThat(claims.claimNext("node-a", tenant, 1, NOW, LEASE, SandboxKind.BUBBLEWRAP))
                .containsExactly(id);
        stale.cancelBeforeStart(NOW);
        assertThatThrownBy(() -> runs.save(stale)).isInstanceOf(ObjectOptimisticLockingFailureException.class);
        assertThat(fixtures.state(id)).isEqualTo("RUNNING");
        assertThatThrownBy(() -> runs.findById(id).orElseThrow().cancelBeforeStart(NOW))
                .isInstanceOf(IllegalRunTransition.class);
    }

    @Test
    void findsTheNodesRunsToCancelAndItsOwnRunsAfterARestart() {
        UUID mine = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(30));
        UUID cancelled = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(20));
        UUID theirs = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(10));
        String node = "node-" + tenant;
        claims.claimNext(node, tenant, 2, NOW, LEASE, SandboxKind.BUBBLEWRAP);
        claims.claimNext("other-" + tenant, tenant, 1, NOW, LEASE, SandboxKind.BUBBLEWRAP);
        RunRecord toCancel = runs.findById(cancelled).orElseThrow();
        toCancel.requestCancel(NOW);
        runs.save(toCancel);
        assertThat(claims.cancelRequested(node)).containsExactly(cancelled);
        assertThat(claims.cancelRequested("other-" + tenant)).isEmpty();
        assertThat(claims.runningOn(node)).containsExactlyInAnyOrder(mine, cancelled);
        assertThat(claims.runningOn("other-" + tenant)).containsExactly(theirs);
    }

    @Test
    void aClaimHoldsALeaseTimedByTheDatabaseThatOnlyItsNodeRenewsAndThatRunsOut() throws InterruptedException {
        UUID mine = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(30));
        UUID theirs = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(20));
        String node = "lease-" + tenant;
        claims.claimNext(node, tenant, 1, NOW, LEASE, SandboxKind.BUBBLEWRAP);
        claims.claimNext("other-" + tenant, tenant, 1, NOW, Duration.ofMillis(1), SandboxKind.BUBBLEWRAP);
        assertThat(leaseLeft(mine))
                .as("30 s from the database's present, whatever the replica's clock says")
                .isBetween(Duration.ofSeconds(25), LEASE);
        Thread.sleep(20);
        assertThat(claims.leaseExpired(1000, node, List.of())).contains(theirs).doesNotContain(mine);
        assertThat(claims.leaseExpired(1000, "other-" + tenant, List.of(theirs)))
                .as("a node's own held runs are its renewals' to keep")
                .doesNotContain(theirs);
        assertThat(claims.leaseExpired(1000, node, List.of(theirs)))
                .as("held by another node's name: still swept")
                .contains(theirs);

        RunClaims.Renewal renewal = claims.renewLeases(node, List.of(mine, theirs), Duration.ofMinutes(5));
        assertThat(renewal.renewed()).as("only its own run").containsExactly(mine);
        assertThat(renewal.lost()).as("the other node's").containsExactly(theirs);
        assertThat(leaseLeft(mine)).isBetween(Duration.ofMinutes(4), Duration.ofMinutes(5));
        assertThat(leaseLeft(theirs)).isNegative();
        assertThat(claims.renewLeases(node, List.of(), LEASE).renewed()).isEmpty();
        assertThatThrownBy(() -> claims.renewLeases(node, List.of(mine), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A run whose row another transaction holds (its result being recorded, waiting behind the tenant's audit lock)
     * does not hold up the renewal of the node's other runs, nor counts as lost to another replica.
     */
    @Test
    void aRenewalPassesOverARowAnotherTransactionHolds() throws Exception {
        UUID busy = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(30));
        UUID free = fixtures.run(tenant, RunState.APPROVED, NOW.minusSeconds(20));
        String node = "busy-" + tenant;
        claims.claimNext(node, tenant, 2, NOW, LEASE, SandboxKind.BUBBLEWRAP);
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        var holder = threads.submit(() -> new org.springframework.transaction.support.TransactionTemplate(transactions)
                .executeWithoutResult(status -> {
                    jdbc.sql("SELECT id FROM airlock.runs WHERE id = ? FOR UPDATE")
                            .param(busy)
                            .query(UUID.class)
                            .single();
                    locked.countDown();
                    await(release);
                }));
        await(locked);
        try {
            RunClaims.Renewal renewal = threads.submit(() -> claims.renewLeases(node, List.of(busy, free), LEASE))
                    .get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(renewal.renewed()).containsExactly(free);
            assertThat(renewal.lost()).as("still this node's, only busy").isEmpty();
        } finally {
            release.countDown();
            holder.get(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    private Duration leaseLeft(UUID run) {
        double seconds = jdbc.sql("SELECT extract(epoch FROM lease_until - now()) FROM airlock.runs WHERE id = ?")
                .param(run)
                .query(Double.class)
                .single();
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test did not let the transaction end");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
