package dev.airlock.persistence.run;

import java.util.Optional;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** Runs, always looked up within a tenant. */
// Declared query methods get no transaction of their own from Spring Data: this gives them one, so
// that every query runs in a transaction that carries the thread's database scope (role and tenants).
@org.springframework.transaction.annotation.Transactional(readOnly = true)
public interface RunRepository extends JpaRepository<RunRecord, UUID> {

    /** The run if it belongs to {@code tenant}; another tenant's run is indistinguishable from none. */
    Optional<RunRecord> findByIdAndTenant(UUID id, String tenant);

    /** The run if it is still RUNNING, row-locked; empty when another replica holds the row. */
    @Query(
            value = "SELECT * FROM airlock.runs WHERE id = :id AND state = 'RUNNING' FOR UPDATE SKIP LOCKED",
            nativeQuery = true)
    Optional<RunRecord> lockRunning(@Param("id") UUID id);

    /**
     * The run if it is still RUNNING and its lease ran out by the database's clock, row-locked; empty
     * when its replica renewed the lease meanwhile, or another replica holds the row.
     */
    @Query(
            value = "SELECT * FROM airlock.runs WHERE id = :id AND state = 'RUNNING' AND lease_until < now()"
                    + " FOR UPDATE SKIP LOCKED",
            nativeQuery = true)
    Optional<RunRecord> lockLeaseExpired(@Param("id") UUID id);

    /** The run if it belongs to one of {@code tenants}. */
    Optional<RunRecord> findByIdAndTenantIn(UUID id, java.util.Collection<String> tenants);

    /** Just the state of the run, if it belongs to {@code tenant}: a cheap poll while waiting. */
    @Query("select r.state from RunRecord r where r.id = :id and r.tenant = :tenant")
    Optional<RunState> findStateByIdAndTenant(@Param("id") UUID id, @Param("tenant") String tenant);

    /** The run an agent created earlier with the same idempotency key. */
    Optional<RunRecord> findByTenantAndAgentAndIdempotencyKey(String tenant, String agent, String idempotencyKey);

    /**
     * The agent's latest twenty runs of the tool created before {@code before}, newest first (a
     * run's page shows the five before it that its viewer may see).
     */
    java.util.List<RunRecord> findTop20ByTenantAndAgentAndToolAndCreatedAtBeforeOrderByCreatedAtDesc(
            String tenant, String agent, String tool, java.time.Instant before);

    /**
     * Ids of the tenant's runs created in {@code [from, to)} after {@code after} (a run id), in id
     * order, at most {@code limit}: one page of a time range, for exports that stream.
     */
    @Query(
            value = "SELECT id FROM airlock.runs WHERE tenant = :tenant AND created_at >= :from AND created_at < :to"
                    + " AND id > :after ORDER BY id LIMIT :limit",
            nativeQuery = true)
    java.util.List<UUID> idsCreatedBetween(
            @Param("tenant") String tenant,
            @Param("from") java.time.Instant from,
            @Param("to") java.time.Instant to,
            @Param("after") UUID after,
            @Param("limit") int limit);
}
