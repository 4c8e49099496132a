package dev.airlock.persistence.database;

import java.time.Instant;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The time by PostgreSQL's clock, the one clock every replica shares: what two replicas must agree
 * on (a lease, whether a request for approval has expired) is not judged by either replica's own
 * clock alone, which may be wrong by any amount.
 */
@Component
public class DatabaseTime {

    private final JdbcClient jdbc;

    DatabaseTime(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The database's time now (the statement's start), in the caller's transaction if there is one. */
    public Instant now() {
        return jdbc.sql("SELECT statement_timestamp()")
                .query(java.sql.Timestamp.class)
                .single()
                .toInstant();
    }

    /** The later of {@code replica} and the database's time: a deadline has passed if either clock says so. */
    public Instant laterOf(Instant replica) {
        Instant database = now();
        return database.isAfter(replica) ? database : replica;
    }

    /** The earlier of {@code replica} and the database's time: a deadline counted from it comes no later than either allows. */
    public Instant earlierOf(Instant replica) {
        Instant database = now();
        return database.isBefore(replica) ? database : replica;
    }
}
