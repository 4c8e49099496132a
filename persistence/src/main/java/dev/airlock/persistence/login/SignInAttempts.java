package dev.airlock.persistence.login;

import java.sql.Timestamp;
import java.time.Instant;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The failed sign-ins of the last window and the lock-outs in force, per user name and per client
 * address ("subjects" {@code user:<name>} and {@code address:<address>}). Callers run it in the
 * console's scope; it decides nothing, the people's sign-in throttle does.
 */
@Repository
public class SignInAttempts {

    private final JdbcClient jdbc;

    SignInAttempts(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Whether either subject is locked out at {@code now}. */
    @Transactional(readOnly = true)
    public boolean lockedOut(String userSubject, String addressSubject, Instant now) {
        return jdbc.sql(
                                "SELECT count(*) FROM airlock.login_lockouts WHERE subject IN (:user, :address) AND locked_until > :now")
                        .param("user", userSubject)
                        .param("address", addressSubject)
                        .param("now", Timestamp.from(now))
                        .query(Long.class)
                        .single()
                > 0;
    }

    /**
     * Records one failure at {@code now} (an attempt counted before its password is checked, forgotten by
     * {@link #forget} if it succeeds), forgetting failures before {@code since}. The caller commits it
     * before it {@linkplain #counts counts}, so that attempts made at the same moment each count the others.
     */
    public void reserve(String username, String address, Instant now, Instant since) {
        jdbc.sql("DELETE FROM airlock.login_failures WHERE failed_at < :since")
                .param("since", Timestamp.from(since))
                .update();
        jdbc.sql("INSERT INTO airlock.login_failures (username, address, failed_at) VALUES (:user, :address, :now)")
                .param("user", username)
                .param("address", address)
                .param("now", Timestamp.from(now))
                .update();
    }

    /** How many failures the user name and the address have had since {@code since}. */
    public Counts counts(String username, String address, Instant since) {
        Timestamp from = Timestamp.from(since);
        long byUser = jdbc.sql(
                        "SELECT count(*) FROM airlock.login_failures WHERE username = :user AND failed_at >= :since")
                .param("user", username)
                .param("since", from)
                .query(Long.class)
                .single();
        long byAddress = jdbc.sql(
                        "SELECT count(*) FROM airlock.login_failures WHERE address = :address AND failed_at >= :since")
                .param("address", address)
                .param("since", from)
                .query(Long.class)
                .single();
        return new Counts(byUser, byAddress);
    }

    /**
     * Failures counted for one attempt.
     *
     * @param byUser    of the user name
     * @param byAddress from the address
     */
    public record Counts(long byUser, long byAddress) {}

    /** Forgets a user name's failures. */
    @Transactional
    public void forget(String username) {
        jdbc.sql("DELETE FROM airlock.login_failures WHERE username = :user")
                .param("user", username)
                .update();
    }

    /** Locks {@code subject} out until {@code until}; false if it already was (so that one lock-out is told once). */
    public boolean lock(String subject, Instant until, Instant now) {
        return jdbc.sql("""
                INSERT INTO airlock.login_lockouts (subject, locked_until) VALUES (:subject, :until)
                ON CONFLICT (subject) DO UPDATE SET locked_until = EXCLUDED.locked_until
                WHERE airlock.login_lockouts.locked_until <= :now""")
                        .param("subject", subject)
                        .param("until", Timestamp.from(until))
                        .param("now", Timestamp.from(now))
                        .update()
                > 0;
    }
}
