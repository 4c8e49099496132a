package dev.airlock.approval.people;

import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.persistence.audit.AuditLog;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Throttles password guessing on the sign-in form, for the whole cluster (the counts live in
 * PostgreSQL): after {@code airlock.login.max-failures} failures for one user name, or
 * {@code max-failures-per-address} from one client address, within {@code window}, every attempt
 * for that name or from that address is refused for {@code lockout} without the password being
 * checked, so a refusal never tells whether the password was right. Each lock-out is an audit
 * event in every tenant's log (a sign-in belongs to no one tenant).
 */
@Service
public class LoginThrottle {

    private static final Logger log = LoggerFactory.getLogger(LoginThrottle.class);
    private static final int MAX_USERNAME = 200;

    private final JdbcClient jdbc;
    private final AuditLog audit;
    private final AirlockProperties.Login settings;
    private final Set<String> tenants;
    private final Clock clock;

    private final HumanDirectory people;

    private final dev.airlock.persistence.scope.Scopes scopes;
    private final org.springframework.transaction.support.TransactionTemplate transactions;

    LoginThrottle(JdbcClient jdbc, AuditLog audit, AirlockProperties properties, HumanDirectory people, Clock clock,
            dev.airlock.persistence.scope.Scopes scopes, org.springframework.transaction.support.TransactionTemplate transactions) {
        this.scopes = scopes;
        this.transactions = transactions;
        this.people = people;
        this.jdbc = jdbc;
        this.audit = audit;
        this.settings = properties.login();
        this.tenants = Set.copyOf(properties.tenants().keySet());
        this.clock = clock;
    }

    /** Whether attempts for {@code username} or from {@code address} are refused right now. */
    @Transactional(readOnly = true)
    public boolean lockedOut(String username, String address) {
        return jdbc.sql("SELECT count(*) FROM airlock.login_lockouts WHERE subject IN (:user, :address) AND locked_until > :now")
                .param("user", userSubject(username)).param("address", addressSubject(address))
                .param("now", Timestamp.from(clock.instant())).query(Long.class).single() > 0;
    }

    /**
     * Records a failed attempt and locks the name or the address out when it reached its limit. A
     * lock-out is written into every tenant's audit log, so this works over every configured tenant.
     */
    public void failed(String username, String address) {
        scopes.consoleJobs().run(() -> transactions.executeWithoutResult(status -> record(username, address)));
    }

    private void record(String username, String address) {
        Instant now = clock.instant();
        Timestamp since = Timestamp.from(now.minus(settings.window()));
        jdbc.sql("DELETE FROM airlock.login_failures WHERE failed_at < :since").param("since", since).update();
        jdbc.sql("INSERT INTO airlock.login_failures (username, address, failed_at) VALUES (:user, :address, :now)")
                .param("user", bounded(username)).param("address", bounded(address)).param("now", Timestamp.from(now)).update();
        long byUser = jdbc.sql("SELECT count(*) FROM airlock.login_failures WHERE username = :user AND failed_at >= :since")
                .param("user", bounded(username)).param("since", since).query(Long.class).single();
        long byAddress = jdbc.sql("SELECT count(*) FROM airlock.login_failures WHERE address = :address AND failed_at >= :since")
                .param("address", bounded(address)).param("since", since).query(Long.class).single();
        if (byUser >= settings.maxFailures()) {
            lock(userSubject(username), "user", username, byUser, now);
        }
        if (byAddress >= settings.maxFailuresPerAddress()) {
            lock(addressSubject(address), "address", address, byAddress, now);
        }
    }

    /** Forgets a user name's failures after it signed in. */
    @Transactional
    public void succeeded(String username) {
        jdbc.sql("DELETE FROM airlock.login_failures WHERE username = :user").param("user", bounded(username)).update();
    }

    private void lock(String subject, String kind, String who, long failures, Instant now) {
        Instant until = now.plus(settings.lockout());
        int fresh = jdbc.sql("""
                INSERT INTO airlock.login_lockouts (subject, locked_until) VALUES (:subject, :until)
                ON CONFLICT (subject) DO UPDATE SET locked_until = EXCLUDED.locked_until
                WHERE airlock.login_lockouts.locked_until <= :now""")
                .param("subject", subject).param("until", Timestamp.from(until)).param("now", Timestamp.from(now)).update();
        if (fresh == 0) {
            return;
        }
        // A user name that is nobody's may be a password typed in the wrong field: never write it down.
        String shown = kind.equals("user") && !people.knows(who) ? "(an unknown user name)" : bounded(who);
        log.warn("Sign-in locked out for {} {} after {} failed attempts, until {}", kind, shown, failures, until);
        Map<String, String> details = new TreeMap<>(Map.of(kind, shown, "failures", Long.toString(failures),
                "until", until.toString()));
        for (String tenant : tenants) {
            audit.append(tenant, AuditEventType.LOGIN_LOCKED, null, "airlock", details, now);
        }
    }

    private static String userSubject(String username) {
        return "user:" + bounded(username);
    }

    private static String addressSubject(String address) {
        return "address:" + bounded(address);
    }

    private static String bounded(String value) {
        String text = value == null ? "" : value;
        return text.length() > MAX_USERNAME ? text.substring(0, MAX_USERNAME) : text;
    }
}
