package dev.airlock.persistence.run;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Moves approved runs to RUNNING so that each is executed exactly once, whatever the number of
 * gateway replicas: a conditional update for one run, {@code FOR UPDATE SKIP LOCKED} for the
 * next ones in line. Leases are timed by the database's clock ({@code now()}), never a replica's:
 * replicas whose clocks disagree still agree on when a lease runs out.
 */
@Component
public class RunClaims {

    /**
     * The {@code NOTIFY} channel on which the human side announces, in the deciding transaction,
     * that a tenant has a newly approved run (the payload is the tenant).
     */
    public static final String APPROVED_CHANNEL = "airlock_run_approved";

    /**
     * The {@code NOTIFY} channel on which every run's end is announced, by a trigger in the
     * transaction that writes it (the payload is the run's id). A cue to read the run, never a fact:
     * any role of the database may notify on any channel.
     */
    public static final String ENDED_CHANNEL = "airlock_run_ended";

    private final JdbcClient jdbc;

    RunClaims(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Claims up to {@code limit} APPROVED runs of {@code tenant}, oldest first, skipping rows that
     * other replicas are claiming at the same moment; each names the sandbox it will run in from now on
     * and holds a lease of {@code ttl} from the database's present time.
     */
    @Transactional
    public List<UUID> claimNext(String node, String tenant, int limit, Instant now, Duration ttl, SandboxKind sandbox) {
        return jdbc.sql("""
                UPDATE airlock.runs SET state = 'RUNNING', claimed_by = :node, started_at = :now,
                       lease_until = now() + :ttlMicros * interval '1 microsecond',
                       sandbox = CASE WHEN kind = 'PROCESS' THEN :sandbox END, updated_at = :now, version = version + 1
                 WHERE id IN (SELECT id FROM airlock.runs WHERE state = 'APPROVED' AND tenant = :tenant
                               ORDER BY created_at LIMIT :limit FOR UPDATE SKIP LOCKED)
                RETURNING id
                """)
                .param("node", node)
                .param("tenant", tenant)
                .param("now", Timestamp.from(now))
                .param("ttlMicros", micros(ttl))
                .param("sandbox", sandbox.name())
                .param("limit", limit)
                .query((rs, n) -> rs.getObject(1, UUID.class))
                .list();
    }

    /** How many runs of {@code tenant} wait in APPROVED for an executor. */
    @Transactional(readOnly = true)
    public int countApproved(String tenant) {
        return jdbc.sql("SELECT count(*) FROM airlock.runs WHERE state = 'APPROVED' AND tenant = :tenant")
                .param("tenant", tenant)
                .query(Integer.class)
                .single();
    }

    /**
     * The tenants (of those the transaction may see) with runs waiting in APPROVED: one look at
     * the small index of approved runs, so that the poll opens a tenant's scope only when it has
     * work, however many tenants are configured.
     */
    @Transactional(readOnly = true)
    public List<String> tenantsWithApproved() {
        return jdbc.sql("SELECT DISTINCT tenant FROM airlock.runs WHERE state = 'APPROVED'")
                .query((rs, n) -> rs.getString(1))
                .list();
    }

    /** Runs this node is executing that someone asked to cancel. */
    @Transactional(readOnly = true)
    public List<UUID> cancelRequested(String node) {
        return jdbc.sql(
                        "SELECT id FROM airlock.runs WHERE state = 'RUNNING' AND cancel_requested AND claimed_by = :node")
                .param("node", node)
                .query((rs, n) -> rs.getObject(1, UUID.class))
                .list();
    }

    /**
     * What a renewal found.
     *
     * @param renewed the runs whose lease it extended
     * @param lost    the runs that are no longer this node's (another replica ended them, or took them over)
     */
    public record Renewal(List<UUID> renewed, List<UUID> lost) {}

    /**
     * Extends this node's leases on the runs it is still executing to {@code ttl} from the database's
     * present time. A row another transaction holds locked (the run's result being recorded, a peer
     * ending it) is left for the next renewal rather than waited for, and so is neither renewed nor lost;
     * the database gives its statements at most a sixth of {@code ttl} (the wait for a connection, or a
     * network that stopped answering, are not bounded by it).
     */
    @Transactional
    public Renewal renewLeases(String node, Collection<UUID> runIds, Duration ttl) {
        long ttlMicros = micros(ttl);
        if (runIds.isEmpty()) {
            return new Renewal(List.of(), List.of());
        }
        UUID[] ids = runIds.toArray(UUID[]::new);
        jdbc.sql("SELECT set_config('statement_timeout', :timeout, true)")
                .param("timeout", Math.max(1, ttlMicros / 6 / 1000) + "ms")
                .query(String.class)
                .single();
        List<UUID> renewed = jdbc.sql("""
                UPDATE airlock.runs SET lease_until = now() + :ttlMicros * interval '1 microsecond'
                 WHERE id IN (SELECT id FROM airlock.runs WHERE state = 'RUNNING' AND claimed_by = :node
                                 AND id = ANY(:ids) FOR NO KEY UPDATE SKIP LOCKED)
                RETURNING id
                """)
                .param("ttlMicros", ttlMicros)
                .param("node", node)
                .param("ids", ids)
                .query((rs, n) -> rs.getObject(1, UUID.class))
                .list();
        if (renewed.size() == ids.length) {
            return new Renewal(renewed, List.of());
        }
        java.util.Set<UUID> missing = new java.util.HashSet<>(runIds);
        missing.removeAll(renewed);
        // Read without a lock: a row skipped as locked that is still this node's is not lost.
        List<UUID> stillMine = jdbc.sql(
                        "SELECT id FROM airlock.runs WHERE state = 'RUNNING' AND claimed_by = :node AND id = ANY(:ids)")
                .param("node", node)
                .param("ids", missing.toArray(UUID[]::new))
                .query((rs, n) -> rs.getObject(1, UUID.class))
                .list();
        missing.removeAll(stillMine);
        return new Renewal(renewed, List.copyOf(missing));
    }

    /**
     * Runs whose executing replica's lease ran out by the database's clock, oldest lease first, but
     * for those {@code node} holds itself ({@code held}: its renewals keep them, its sweep never ends them).
     */
    @Transactional(readOnly = true)
    public List<UUID> leaseExpired(int limit, String node, Collection<UUID> held) {
        return jdbc.sql("""
                        SELECT id FROM airlock.runs WHERE state = 'RUNNING' AND lease_until < now()
                           AND NOT (claimed_by = :node AND id = ANY(:held))
                         ORDER BY lease_until LIMIT :limit""")
                .param("limit", limit)
                .param("node", node)
                .param("held", held.toArray(UUID[]::new))
                .query((rs, n) -> rs.getObject(1, UUID.class))
                .list();
    }

    private static long micros(Duration ttl) {
        if (!ttl.isPositive()) {
            throw new IllegalArgumentException("a lease must be longer than zero: " + ttl);
        }
        return java.util.concurrent.TimeUnit.NANOSECONDS.toMicros(ttl.toNanos());
    }

    /** Runs that this node was executing in an earlier life (before a crash or a kill). */
    @Transactional(readOnly = true)
    public List<UUID> runningOn(String node) {
        return jdbc.sql("SELECT id FROM airlock.runs WHERE state = 'RUNNING' AND claimed_by = :node")
                .param("node", node)
                .query((rs, n) -> rs.getObject(1, UUID.class))
                .list();
    }
}
