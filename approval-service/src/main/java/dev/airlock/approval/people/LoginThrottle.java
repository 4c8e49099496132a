package dev.airlock.approval.people;

import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.kernel.config.TenantNames;
import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.login.SignInAttempts;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Throttles password guessing on the sign-in form, for the whole cluster (the counts live in
 * PostgreSQL): after {@code airlock.login.max-failures} failures for one user name, or
 * {@code max-failures-per-address} from one client address, within {@code window}, every attempt
 * for that name or from that address is refused for {@code lockout} without the password being
 * checked, so a refusal never tells whether the password was right. An IPv6 address counts by
 * its /64 (one host commonly holds all of it). Each lock-out is an audit event: a configured
 * person's in the logs of the tenants they have a role in (another tenant's auditors do not learn
 * their name), an address's in every tenant's; a name that is nobody's is only logged, without
 * the name.
 */
@Service
public class LoginThrottle {

    private static final Logger log = LoggerFactory.getLogger(LoginThrottle.class);
    private static final int MAX_USERNAME = 200;

    private final SignInAttempts attempts;
    private final AuditLog audit;
    private final PeopleSettings.Login settings;
    private final Set<String> tenants;
    private final Clock clock;

    private final HumanDirectory people;

    private final dev.airlock.persistence.scope.Scopes scopes;
    private final org.springframework.transaction.support.TransactionTemplate transactions;

    LoginThrottle(
            SignInAttempts attempts,
            AuditLog audit,
            PeopleSettings properties,
            TenantNames tenantNames,
            HumanDirectory people,
            Clock clock,
            dev.airlock.persistence.scope.Scopes scopes,
            org.springframework.transaction.support.TransactionTemplate transactions) {
        this.scopes = scopes;
        this.transactions = transactions;
        this.people = people;
        this.attempts = attempts;
        this.audit = audit;
        this.settings = properties.login();
        this.tenants = Set.copyOf(tenantNames.names());
        this.clock = clock;
    }

    /**
     * Whether the password of this attempt may be checked: not while the name or the address is
     * locked out, nor when this attempt is past either limit (which locks them). The attempt is
     * counted as a failure first, committed before the counts are read, and forgotten only if it
     * succeeds: attempts sent at the same moment each see the others, so no burst gets more than the
     * limit's password checks before the lock-out.
     */
    public boolean admit(String username, String address) {
        return scopes.consoleJobs().call(() -> {
            Instant now = clock.instant();
            if (attempts.lockedOut(userSubject(username), addressSubject(address), now)) {
                return false;
            }
            Instant since = now.minus(settings.window());
            transactions.executeWithoutResult(
                    status -> attempts.reserve(bounded(username), counted(address), now, since));
            return Boolean.TRUE.equals(transactions.execute(status -> {
                SignInAttempts.Counts counts = attempts.counts(bounded(username), counted(address), since);
                boolean within = counts.byUser() <= settings.maxFailures()
                        && counts.byAddress() <= settings.maxFailuresPerAddress();
                if (!within) {
                    lockWhereReached(username, address, counts, now);
                }
                return within;
            }));
        });
    }

    /**
     * An admitted attempt failed (it was counted when it was {@linkplain #admit admitted}): locks the
     * name or the address out when it has reached its limit. A lock-out is written into every
     * tenant's audit log, so this works over every configured tenant.
     */
    public void failed(String username, String address) {
        scopes.consoleJobs()
                .run(() -> transactions.executeWithoutResult(status -> {
                    Instant now = clock.instant();
                    lockWhereReached(
                            username,
                            address,
                            attempts.counts(bounded(username), counted(address), now.minus(settings.window())),
                            now);
                }));
    }

    private void lockWhereReached(String username, String address, SignInAttempts.Counts counts, Instant now) {
        if (counts.byUser() >= settings.maxFailures()) {
            lock(userSubject(username), "user", username, counts.byUser(), now);
        }
        if (counts.byAddress() >= settings.maxFailuresPerAddress()) {
            lock(addressSubject(address), "address", counted(address), counts.byAddress(), now);
        }
    }

    /** Forgets a user name's failures after it signed in. */
    public void succeeded(String username) {
        attempts.forget(bounded(username));
    }

    private void lock(String subject, String kind, String who, long failures, Instant now) {
        Instant until = now.plus(settings.lockout());
        if (!attempts.lock(subject, until, now)) {
            return;
        }
        // A user name that is nobody's may be a password typed in the wrong field: never write it down.
        boolean unknownName = kind.equals("user") && !people.knows(who);
        String shown = unknownName ? "(an unknown user name)" : bounded(who);
        log.warn("Sign-in locked out for {} {} after {} failed attempts, until {}", kind, shown, failures, until);
        if (unknownName) {
            // Nobody's account is at stake, and fresh names cost nothing: in the tenants' audit logs, every
            // five guesses would append an event to each of them.
            return;
        }
        java.util.Set<String> where = kind.equals("user") ? people.tenantsOf(who, tenants) : tenants;
        if (where.isEmpty()) {
            // A configured person with no role in any tenant: audited everywhere, without the name.
            where = tenants;
            shown = "(a person with no role in a tenant)";
        }
        Map<String, String> details =
                new TreeMap<>(Map.of(kind, shown, "failures", Long.toString(failures), "until", until.toString()));
        for (String tenant : where) {
            audit.append(tenant, AuditEventType.LOGIN_LOCKED, null, "airlock", details, now);
        }
    }

    private static String userSubject(String username) {
        return "user:" + bounded(username);
    }

    private static String addressSubject(String address) {
        return "address:" + counted(address);
    }

    /** The address as failures are counted under it: an IPv6 address by its /64 ({@link ClientAddress}), bounded. */
    private static String counted(String address) {
        return bounded(ClientAddress.counted(address));
    }

    private static String bounded(String value) {
        String text = value == null ? "" : value;
        return text.length() > MAX_USERNAME ? text.substring(0, MAX_USERNAME) : text;
    }
}
