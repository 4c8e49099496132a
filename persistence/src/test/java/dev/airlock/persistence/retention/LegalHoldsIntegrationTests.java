package dev.airlock.persistence.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.persistence.Fixtures;
import dev.airlock.persistence.run.RunState;
import java.time.Instant;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Legal holds on PostgreSQL: placed once on a run of the tenant with a reason, found, released
 * once, and each change written to the tenant's audit log; another tenant's run cannot be held
 * or released through this tenant.
 */
@SpringBootTest
class LegalHoldsIntegrationTests {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @Autowired
    LegalHolds holds;

    @Autowired
    JdbcClient jdbc;

    Fixtures fixtures;
    String tenant;
    UUID run;

    @BeforeEach
    void setUp() {
        fixtures = new Fixtures(jdbc);
        tenant = fixtures.tenant();
        run = fixtures.run(tenant, RunState.COMPLETED, NOW.minusSeconds(3600));
    }

    @Test
    void aHoldIsPlacedOnceAndReleasedOnceAndEachChangeIsAudited() {
        assertThat(holds.find(tenant, run)).isEmpty();
        assertThat(holds.place(tenant, run, "  litigation 7 ", "amber", NOW)).isTrue();
        assertThat(holds.place(tenant, run, "another case", "frank", NOW.plusSeconds(1)))
                .as("already held")
                .isFalse();
        assertThat(holds.find(tenant, run)).contains(new LegalHolds.Hold("litigation 7", "amber", NOW));

        assertThat(holds.release(tenant, run, "settled", "amber", NOW.plusSeconds(2)))
                .isTrue();
        assertThat(holds.find(tenant, run)).isEmpty();
        assertThat(holds.release(tenant, run, "settled", "amber", NOW.plusSeconds(3)))
                .as("nothing to release")
                .isFalse();

        assertThat(jdbc.sql("SELECT type || ' ' || actor || ' ' || details FROM airlock.audit_events"
                                + " WHERE tenant = :tenant AND run_id = :run ORDER BY seq")
                        .param("tenant", tenant)
                        .param("run", run)
                        .query(String.class)
                        .list())
                .containsExactly(
                        "legal-hold.placed human:amber {\"reason\":\"litigation 7\"}",
                        "legal-hold.released human:amber {\"reason\":\"settled\"}");
    }

    @Autowired
    javax.sql.DataSource dataSource;

    /** A connection whose open transaction holds the tenant's purge lock, as a purge under way does. */
    private java.sql.Connection purgeUnderWay() throws java.sql.SQLException {
        java.sql.Connection purge = dataSource.getConnection();
        purge.setAutoCommit(false);
        try (var statement = purge.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
            statement.setString(1, "airlock-retention:" + tenant);
            statement.execute();
        }
        return purge;
    }

    /** Places a hold on {@code held} from another thread, once it waits on the purge's lock. */
    private java.util.concurrent.CompletableFuture<Boolean> placeWaiting(UUID held, String reason) {
        java.util.concurrent.CompletableFuture<Boolean> placing = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> holds.place(tenant, held, reason, "amber", NOW));
        org.awaitility.Awaitility.await("the hold waiting on the purge's lock")
                .atMost(java.time.Duration.ofSeconds(20))
                .until(() -> jdbc.sql("SELECT count(*) FROM pg_stat_activity"
                                        + " WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'"
                                        + " AND query LIKE '%pg_advisory_xact_lock%'")
                                .query(Long.class)
                                .single()
                        > 0);
        return placing;
    }

    @Test
    void aHoldWaitsForAPurgeOfTheTenantThatIsUnderWay() throws Exception {
        // A purge decides what is held when it begins; a hold placed meanwhile is placed after it.
        try (java.sql.Connection purge = purgeUnderWay()) {
            java.util.concurrent.CompletableFuture<Boolean> placing = placeWaiting(run, "litigation 8");
            assertThat(placing).isNotDone();
            purge.commit();
            assertThat(placing.get(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        }
        // A run the purge removed while the hold waited is no run of the tenant (not a broken key).
        UUID purged = fixtures.run(tenant, RunState.COMPLETED, NOW.minusSeconds(3600));
        try (java.sql.Connection purge = purgeUnderWay()) {
            java.util.concurrent.CompletableFuture<Boolean> placing = placeWaiting(purged, "litigation 9");
            try (var statement = purge.prepareStatement("DELETE FROM airlock.runs WHERE id = ?")) {
                statement.setObject(1, purged);
                assertThat(statement.executeUpdate()).isOne();
            }
            purge.commit();
            assertThatThrownBy(() -> placing.get(20, java.util.concurrent.TimeUnit.SECONDS))
                    .hasCauseInstanceOf(NoSuchElementException.class);
        }
    }

    @Test
    void aHoldNeedsAReasonAndARunOfTheTenant() {
        assertThatThrownBy(() -> holds.place(tenant, run, " ", "amber", NOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> holds.place(tenant, UUID.randomUUID(), "x", "amber", NOW))
                .isInstanceOf(NoSuchElementException.class);
        String other = fixtures.tenant();
        assertThatThrownBy(() -> holds.place(other, run, "x", "mallory", NOW))
                .isInstanceOf(NoSuchElementException.class);
        assertThat(holds.find(tenant, run)).isEmpty();

        holds.place(tenant, run, "litigation 7", "amber", NOW);
        assertThat(holds.find(other, run)).isEmpty();
        assertThat(holds.release(other, run, "x", "mallory", NOW))
                .as("released through another tenant")
                .isFalse();
        assertThat(holds.find(tenant, run)).isPresent();
        assertThat(jdbc.sql("SELECT count(*) FROM airlock.audit_events WHERE tenant = :tenant")
                        .param("tenant", other)
                        .query(Integer.class)
                        .single())
                .isZero();
    }
}
