package dev.airlock.persistence.audit;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Appends events to a tenant's hash-chained audit log and verifies the chain. An event is
 * written in the transaction of what it records, so that the record and its event commit or
 * fail together. Appends of one tenant are serialized by a transaction-scoped advisory lock.
 *
 * <p>The hash of an event is the SHA-256 (hex) of the previous event's hash followed by the
 * canonical form of the event: {@code prev \n tenant \n seq \n type \n runId \n actor \n
 * details \n occurredAt}; the first event of a tenant follows 64 zeros.
 */
@Component
public class AuditLog {

    /** The hash the first event of every tenant follows. */
    public static final String GENESIS = AuditChain.GENESIS;

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;

    AuditLog(JdbcClient jdbc, JdbcTemplate jdbcTemplate) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
    }

    /**
     * Appends an event in the caller's transaction.
     *
     * @param details flat string details, stored as a JSON object with sorted keys; never output or secrets
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public AuditEvent append(
            String tenant,
            AuditEventType eventType,
            @Nullable UUID runId,
            String actor,
            Map<String, String> details,
            Instant occurredAt) {
        return appendAll(tenant, List.of(new NewEvent(eventType, runId, actor, details, occurredAt)))
                .getFirst();
    }

    /**
     * An event to append.
     *
     * @param type       what happened
     * @param runId      the run it is about, or null
     * @param actor      who did it
     * @param details    flat string details, stored as a JSON object with sorted keys; never output or secrets
     * @param occurredAt when
     */
    public record NewEvent(
            AuditEventType type, @Nullable UUID runId, String actor, Map<String, String> details, Instant occurredAt) {}

    /**
     * Appends events, in this order, in the caller's transaction: two round trips however many
     * there are (the tenant's lock taken and its chain head read in one, the events written in one).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public List<AuditEvent> appendAll(String tenant, List<NewEvent> events) {
        if (events.isEmpty()) {
            return List.of();
        }
        Optional<Head> last = lockedHead(tenant);
        long seq;
        String prev;
        if (last.isPresent()) {
            seq = Math.addExact(last.get().seq(), 1);
            prev = last.get().hash();
        } else {
            ChainStart start = chainStart(tenant);
            seq = start.firstSeq();
            prev = start.prevHash();
        }
        List<AuditEvent> appended = new java.util.ArrayList<>(events.size());
        for (NewEvent event : events) {
            Instant at = event.occurredAt().truncatedTo(ChronoUnit.MICROS);
            String json = AuditChain.json(event.details());
            String type = event.type().key();
            String hash = AuditChain.hash(prev, tenant, seq, type, event.runId(), event.actor(), json, at);
            appended.add(new AuditEvent(tenant, seq, type, event.runId(), event.actor(), json, at, prev, hash));
            prev = hash;
            seq++;
        }
        jdbcTemplate.batchUpdate("""
                INSERT INTO airlock.audit_events (tenant, seq, type, run_id, actor, details, occurred_at, prev_hash, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, appended, appended.size(), (statement, event) -> {
            statement.setString(1, event.tenant());
            statement.setLong(2, event.seq());
            statement.setString(3, event.type());
            statement.setObject(4, event.runId());
            statement.setString(5, event.actor());
            statement.setString(6, event.details());
            statement.setTimestamp(7, Timestamp.from(event.occurredAt()));
            statement.setString(8, event.prevHash());
            statement.setString(9, event.hash());
        });
        return appended;
    }

    /**
     * Takes the tenant's append lock (transaction-scoped) and then reads its newest event, in one
     * round trip: two statements sent together, the second begun (with its own snapshot) only once
     * the first holds the lock, so it sees every append committed before.
     */
    private Optional<Head> lockedHead(String tenant) {
        return java.util.Objects.requireNonNull(jdbcTemplate.execute((ConnectionCallback<Optional<Head>>)
                connection -> {
                    try (PreparedStatement statement = connection.prepareStatement(LOCK_THEN_HEAD)) {
                        statement.setString(1, "airlock-audit:" + tenant);
                        statement.setString(2, tenant);
                        statement.execute();
                        if (!statement.getMoreResults()) {
                            throw new IllegalStateException("the chain head was not read after the lock");
                        }
                        try (ResultSet head = statement.getResultSet()) {
                            return head.next()
                                    ? Optional.of(new Head(head.getLong(1), head.getString(2)))
                                    : Optional.empty();
                        }
                    }
                }));
    }

    private static final String LOCK_THEN_HEAD = "SELECT pg_advisory_xact_lock(hashtext(?));"
            + " SELECT seq, hash FROM airlock.audit_events WHERE tenant = ? ORDER BY seq DESC LIMIT 1";

    /** The tenant's events about one run, in order. */
    @Transactional(readOnly = true)
    public List<AuditEvent> forRun(String tenant, UUID runId) {
        return jdbc.sql("SELECT * FROM airlock.audit_events WHERE tenant = :tenant AND run_id = :run ORDER BY seq")
                .param("tenant", tenant)
                .param("run", runId)
                .query(AuditLog::event)
                .list();
    }

    /**
     * The tenant's newest event (its sequence number and hash), or empty for a tenant with none.
     *
     * @param seq  the sequence number
     * @param hash its hash, the chain's head
     */
    public record Head(long seq, String hash) {}

    /** The tenant's chain head now. */
    @Transactional(readOnly = true)
    public Optional<Head> head(String tenant) {
        return newest(tenant);
    }

    /** The tenant's newest event, in the caller's transaction (appends read it with their lock: {@link #lockedHead}). */
    private Optional<Head> newest(String tenant) {
        return jdbc.sql("SELECT seq, hash FROM airlock.audit_events WHERE tenant = :tenant ORDER BY seq DESC LIMIT 1")
                .param("tenant", tenant)
                .query((rs, n) -> new Head(rs.getLong(1), rs.getString(2)))
                .optional();
    }

    /** The first event of the tenant about any of {@code runIds}, or empty when there is none. */
    @Transactional(readOnly = true)
    public Optional<Long> firstSeqAbout(String tenant, java.util.Collection<UUID> runIds) {
        if (runIds.isEmpty()) {
            return Optional.empty();
        }
        return first(jdbc.sql("SELECT min(seq) FROM airlock.audit_events WHERE tenant = :tenant AND run_id IN (:runs)")
                .param("tenant", tenant)
                .param("runs", runIds)
                .query(Long.class)
                .list());
    }

    /**
     * The tenant's last event at or before {@code atMost} that occurred before {@code instant}, or
     * its first event when there is none (empty for a tenant with no events): where a chain segment
     * starts that shows every event from {@code instant} on and every event from {@code atMost} on.
     * Event times do not follow the chain's order (a run's {@code run.started} is appended with its
     * end, a replica's clock may differ), so the last event before {@code instant} may come after a
     * run that was requested within the range; the bound keeps the start before both.
     */
    @Transactional(readOnly = true)
    public Optional<Long> seqBefore(String tenant, Instant instant, long atMost) {
        Optional<Long> before =
                first(jdbc.sql("SELECT max(seq) FROM airlock.audit_events WHERE tenant = :tenant AND occurred_at < :at"
                                + " AND seq <= :atMost")
                        .param("tenant", tenant)
                        .param("at", Timestamp.from(instant))
                        .param("atMost", atMost)
                        .query(Long.class)
                        .list());
        if (before.isPresent()) {
            return before;
        }
        return first(jdbc.sql("SELECT min(seq) FROM airlock.audit_events WHERE tenant = :tenant")
                .param("tenant", tenant)
                .query(Long.class)
                .list());
    }

    /** The one value of an aggregate, empty when it is SQL NULL. */
    private static Optional<Long> first(List<@Nullable Long> values) {
        return values.stream().filter(java.util.Objects::nonNull).findFirst();
    }

    /** The event before {@code seq}'s hash as the chain records it: {@code seq}'s {@code prev_hash}. */
    @Transactional(readOnly = true)
    public Optional<String> prevHashOf(String tenant, long seq) {
        return jdbc.sql("SELECT prev_hash FROM airlock.audit_events WHERE tenant = :tenant AND seq = :seq")
                .param("tenant", tenant)
                .param("seq", seq)
                .query(String.class)
                .optional();
    }

    /** Hands the tenant's events {@code from} to {@code through} (inclusive) to {@code each}, in order, streamed. */
    @Transactional(readOnly = true)
    public void events(String tenant, long from, long through, java.util.function.Consumer<AuditEvent> each) {
        jdbc.sql(
                        "SELECT * FROM airlock.audit_events WHERE tenant = :tenant AND seq BETWEEN :from AND :through ORDER BY seq")
                .param("tenant", tenant)
                .param("from", from)
                .param("through", through)
                .withFetchSize(500)
                .query(rs -> {
                    each.accept(event(rs, 0));
                });
    }

    /**
     * Walks the tenant's chain from its start (the first event, or where retention last cut it)
     * and reports the first break, if any. A cut start must be named by a {@code retention.purged}
     * event in the remaining chain.
     */
    @Transactional(readOnly = true)
    public Verification verify(String tenant) {
        ChainStart start = chainStart(tenant);
        long[] expected = {start.firstSeq()};
        String[] prev = {start.prevHash()};
        boolean[] startConfirmed = {start.firstSeq() == 1};
        String confirmation = startConfirmation(start);
        Verification[] broken = {null};
        jdbc.sql("SELECT * FROM airlock.audit_events WHERE tenant = :tenant AND seq >= :first ORDER BY seq")
                .param("tenant", tenant)
                .param("first", start.firstSeq())
                .query(rs -> {
                    if (broken[0] != null) {
                        return;
                    }
                    AuditEvent e = event(rs, 0);
                    long verified = expected[0] - start.firstSeq();
                    if (e.seq() != expected[0]) {
                        broken[0] =
                                Verification.broken(tenant, verified, e.seq(), "event " + expected[0] + " is missing");
                    } else if (!e.prevHash().equals(prev[0])) {
                        broken[0] = Verification.broken(
                                tenant, verified, e.seq(), "does not follow the hash of the event before it");
                    } else if (!e.hash()
                            .equals(AuditChain.hash(
                                    e.prevHash(),
                                    e.tenant(),
                                    e.seq(),
                                    e.type(),
                                    e.runId(),
                                    e.actor(),
                                    e.details(),
                                    e.occurredAt()))) {
                        broken[0] =
                                Verification.broken(tenant, verified, e.seq(), "its content does not match its hash");
                    }
                    if (e.type().equals(AuditEventType.RETENTION_PURGED.key())
                            && e.details().contains(confirmation)) {
                        startConfirmed[0] = true;
                    }
                    prev[0] = e.hash();
                    expected[0]++;
                });
        if (broken[0] != null) {
            return broken[0];
        }
        if (!startConfirmed[0]) {
            return Verification.broken(
                    tenant,
                    expected[0] - start.firstSeq(),
                    start.firstSeq(),
                    "the chain starts at event " + start.firstSeq() + " but no retention event records that cut");
        }
        return Verification.intact(tenant, expected[0] - start.firstSeq(), prev[0]);
    }

    /**
     * Removes the tenant's oldest events: those that occurred before {@code before}, stopping at
     * the first event about a run under legal hold and keeping the newest event, so that what
     * remains is a suffix of the chain with a head to append to. The removal and the record of the
     * new chain start happen in the database function {@code airlock.remove_oldest_audit_events},
     * the only path the append-only trigger lets through. Returns the new start, or null when
     * nothing was removed. The caller appends the {@code retention.purged} event that names the cut
     * ({@link #startConfirmation}) in the same transaction.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public @Nullable ChainStart removeOldest(String tenant, Instant before, Instant now) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtext(:key))")
                .param("key", "airlock-audit:" + tenant)
                .query(Object.class)
                .optional();
        Long last = jdbc.sql("""
                SELECT max(seq) FROM airlock.audit_events e
                 WHERE e.tenant = :tenant AND e.occurred_at < :before
                   AND e.seq < (SELECT max(seq) FROM airlock.audit_events WHERE tenant = :tenant)
                   AND e.seq < coalesce((SELECT min(h.seq) FROM airlock.audit_events h
                                          JOIN airlock.legal_holds l ON l.run_id = h.run_id
                                         WHERE h.tenant = :tenant), 9223372036854775807)
                   AND e.seq < coalesce((SELECT min(n.seq) FROM airlock.audit_events n
                                         WHERE n.tenant = :tenant AND n.occurred_at >= :before), 9223372036854775807)
                """)
                .param("tenant", tenant)
                .param("before", Timestamp.from(before))
                .query(Long.class)
                .optional()
                .orElse(null);
        if (last == null) {
            return null;
        }
        int removed = jdbc.sql("SELECT airlock.remove_oldest_audit_events(:tenant, :seq, :now)")
                .param("tenant", tenant)
                .param("seq", last)
                .param("now", Timestamp.from(now))
                .query(Integer.class)
                .single();
        ChainStart recorded = chainStart(tenant);
        return new ChainStart(recorded.firstSeq(), recorded.prevHash(), removed);
    }

    /** The details entry that a {@code retention.purged} event carries to confirm a chain start. */
    static String startConfirmation(ChainStart start) {
        return AuditChain.json(Map.of(CHAIN_START_KEY, start.token())).replaceAll("^\\{|}$", "");
    }

    /** The details key naming a chain start in a {@code retention.purged} event. */
    public static final String CHAIN_START_KEY = "auditChainStart";

    private ChainStart chainStart(String tenant) {
        return jdbc.sql("""
                SELECT first_seq, prev_hash FROM airlock.audit_chain_starts WHERE tenant = :tenant
                 ORDER BY first_seq DESC LIMIT 1
                """)
                .param("tenant", tenant)
                .query((rs, n) -> new ChainStart(rs.getLong(1), rs.getString(2), 0))
                .optional()
                .orElse(new ChainStart(1, GENESIS, 0));
    }

    /**
     * Where a tenant's chain starts.
     *
     * @param firstSeq the first event that remains
     * @param prevHash the hash of the last event removed before it
     * @param removed  how many events the cut removed (0 when read back)
     */
    public record ChainStart(long firstSeq, String prevHash, int removed) {

        /** How a {@code retention.purged} event names this start under {@link #CHAIN_START_KEY}: {@code <seq>/<hash>}. */
        public String token() {
            return firstSeq + "/" + prevHash;
        }
    }

    private static AuditEvent event(java.sql.ResultSet rs, int n) throws java.sql.SQLException {
        return new AuditEvent(
                rs.getString("tenant"),
                rs.getLong("seq"),
                rs.getString("type"),
                rs.getObject("run_id", UUID.class),
                rs.getString("actor"),
                rs.getString("details"),
                rs.getTimestamp("occurred_at").toInstant(),
                rs.getString("prev_hash"),
                rs.getString("hash"));
    }

    /**
     * One event.
     *
     * @param tenant     the tenant
     * @param seq        its position in the tenant's chain, from 1
     * @param type       what happened, e.g. {@code run.requested}
     * @param runId      the run it is about, or null
     * @param actor      who: {@code agent:<name>}, {@code human:<name>} or {@code airlock}
     * @param details    a JSON object of strings
     * @param occurredAt when
     * @param prevHash   the hash of the event before it
     * @param hash       its own hash
     */
    public record AuditEvent(
            String tenant,
            long seq,
            String type,
            @Nullable UUID runId,
            String actor,
            String details,
            Instant occurredAt,
            String prevHash,
            String hash) {}

    /**
     * The outcome of walking a chain.
     *
     * @param tenant     the tenant
     * @param intact     whether every event follows the one before it and matches its hash
     * @param verified   how many events were verified before the first break (all of them when intact)
     * @param brokenAt   the sequence number of the first bad event, or null
     * @param problem    what is wrong with it, or null
     * @param head       the hash of the newest event of an intact chain (keep it elsewhere to detect rewrites), or null
     */
    public record Verification(
            String tenant,
            boolean intact,
            long verified,
            @Nullable Long brokenAt,
            @Nullable String problem,
            @Nullable String head) {

        static Verification intact(String tenant, long count, String head) {
            return new Verification(tenant, true, count, null, null, head);
        }

        static Verification broken(String tenant, long verified, long seq, String problem) {
            return new Verification(tenant, false, verified, seq, problem, null);
        }
    }
}
