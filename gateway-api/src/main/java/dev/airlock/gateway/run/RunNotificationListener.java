package dev.airlock.gateway.run;

import dev.airlock.persistence.run.RunClaims;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Listens on PostgreSQL, over one dedicated connection and one virtual thread, for what other
 * replicas (and this one) announce there:
 *
 * <ul>
 *   <li>approvals decided on any replica ({@code LISTEN airlock_run_approved}; the human side's
 *       decision announces them in its transaction): the approved runs start at once, instead of at
 *       the next poll. This is how the agent side learns of a decision: through the database, never
 *       by a call from the human side;
 *   <li>runs' ends, whoever wrote them ({@code LISTEN airlock_run_ended}; a trigger announces every
 *       end in the transaction that writes it): the requests waiting here for that run read its
 *       state ({@link RunCompletions#lookAgain}). While this connection listens, waiting requests
 *       need not read their run's state every 200 ms ({@link RunCompletions#hearsEnds}).
 * </ul>
 *
 * <p>It counts as hearing ends only once it has heard itself: after {@code LISTEN}, it checks that the
 * schema announces ends (the trigger {@code runs_announce_end}) and sends itself an announcement, which
 * must come back within 5 s (a pooler in transaction mode takes the {@code LISTEN} and delivers
 * nothing; tried again every minute). The connection is checked every few seconds (a connection cut off without a word would
 * otherwise look like a quiet one). When it fails, waiting requests go back to reading every
 * 200 ms, and it reconnects; every time it starts or stops hearing ends, every waiting request reads
 * its run's state once, since an end in between was announced to no one here.
 */
@dev.airlock.kernel.config.ConditionalOnSide(dev.airlock.kernel.config.Side.AGENT_API)
@Component
class RunNotificationListener implements DisposableBean {

    /**
     * The {@code application_name} of the listening connection while it listens, followed by the replica's node
     * id (for operators' {@code pg_stat_activity}; PostgreSQL keeps its first 63 bytes).
     */
    static final String APPLICATION_NAME = "airlock-notifications ";

    private static final Logger log = LoggerFactory.getLogger(RunNotificationListener.class);
    private static final long CHECK_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long PROBE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long PROBE_AGAIN_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final DataSource dataSource;
    private final ApprovedRunDispatcher starter;
    private final RunCompletions completions;
    private final String applicationName;
    private volatile boolean stopped;
    private @Nullable Thread listener;

    RunNotificationListener(
            DataSource dataSource,
            ApprovedRunDispatcher starter,
            RunCompletions completions,
            RunExecutor executor,
            MeterRegistry meters) {
        this.dataSource = dataSource;
        this.starter = starter;
        this.completions = completions;
        this.applicationName = APPLICATION_NAME + executor.node();
        Gauge.builder("airlock.waits.announced", completions, c -> c.hearsEnds() ? 1 : 0)
                .description("1 while this replica hears runs' ends announced by the database (waiting requests read "
                        + "their run's state when it ends), 0 while waiting requests read it every 200 ms")
                .register(meters);
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        listener = Thread.ofVirtual().name("run-notifications").start(this::listen);
    }

    private void listen() {
        while (!stopped) {
            Connection connection = null;
            try {
                connection = dataSource.getConnection();
                listenOn(connection);
            } catch (SQLException | RuntimeException e) {
                if (!stopped) {
                    log.warn(
                            "Run notifications interrupted ({}); waiting requests read their runs' state every 200 ms "
                                    + "until reconnected",
                            e.getMessage());
                }
            } finally {
                stopHearing();
                if (connection != null) {
                    release(connection);
                }
            }
            if (!stopped) {
                sleep();
            }
        }
    }

    private void listenOn(Connection connection) throws SQLException {
        PGConnection pg = connection.unwrap(PGConnection.class);
        // LISTEN takes effect when its transaction commits: in auto-commit, at once.
        connection.setAutoCommit(true);
        try (PreparedStatement name = connection.prepareStatement("SELECT set_config('application_name', ?, false)")) {
            name.setString(1, applicationName);
            name.execute();
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN " + RunClaims.APPROVED_CHANNEL);
            statement.execute("LISTEN " + RunClaims.ENDED_CHANNEL);
        }
        boolean hearing = false;
        long nextProbe = System.nanoTime();
        long nextCheck = System.nanoTime() + CHECK_EVERY_NANOS;
        while (!stopped) {
            if (!hearing && System.nanoTime() - nextProbe >= 0) {
                // Approvals are started as they are heard all the same; ends are tried again every minute.
                hearing = announcesEnds(connection) && heardItself(connection, pg);
                if (hearing) {
                    completions.hearingEnds(true);
                    log.info("Listening for approvals and runs' ends announced by the database");
                }
                nextProbe = System.nanoTime() + PROBE_AGAIN_NANOS;
            }
            dispatch(pg.getNotifications(1000));
            if (System.nanoTime() - nextCheck >= 0) {
                if (!connection.isValid(5)) {
                    throw new SQLException("the listening connection did not answer within 5 s");
                }
                nextCheck = System.nanoTime() + CHECK_EVERY_NANOS;
            }
        }
    }

    /** Whether the schema announces runs' ends (a database migrated by an older version does not, until migrated). */
    private static boolean announcesEnds(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet found = statement.executeQuery(
                        // From the catalogs alone: the login role need not use the schema.
                        """
                        SELECT 1 FROM pg_catalog.pg_trigger t
                          JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
                          JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                         WHERE t.tgname = 'runs_announce_end' AND t.tgenabled <> 'D'
                           AND c.relname = 'runs' AND n.nspname = 'airlock'
                        """)) {
            if (found.next()) {
                return true;
            }
        }
        log.warn(
                "The database does not announce runs' ends (no enabled trigger runs_announce_end on airlock.runs): waiting "
                        + "requests read their runs' state every 200 ms");
        return false;
    }

    /**
     * Sends an announcement to this connection's own channel and waits (at most 5 s) until it comes back, handling
     * what else arrives meanwhile; whether it did.
     */
    private boolean heardItself(Connection connection, PGConnection pg) throws SQLException {
        String probe = "probe " + UUID.randomUUID();
        try (PreparedStatement notify = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
            notify.setString(1, RunClaims.ENDED_CHANNEL);
            notify.setString(2, probe);
            notify.execute();
        }
        long deadline = System.nanoTime() + PROBE_WAIT_NANOS;
        while (!stopped && System.nanoTime() - deadline < 0) {
            PGNotification[] notifications = pg.getNotifications(100);
            if (notifications != null && Arrays.stream(notifications).anyMatch(n -> probe.equals(n.getParameter()))) {
                dispatch(notifications);
                return true;
            }
            dispatch(notifications);
        }
        if (!stopped) {
            log.warn("An announcement this replica sent itself did not come back within 5 s (a connection pooler in "
                    + "transaction mode between the replica and PostgreSQL?): waiting requests read their runs' state "
                    + "every 200 ms");
        }
        return false;
    }

    /**
     * Handles what was heard: ends first (the waiters' wake-ups), then each tenant announced with approved runs
     * once. One that fails is logged and does not hold back the others.
     */
    private void dispatch(PGNotification @Nullable [] notifications) {
        if (notifications == null) {
            return;
        }
        Set<String> approvedTenants = new LinkedHashSet<>();
        for (PGNotification notification : notifications) {
            String channel = notification.getName();
            if (RunClaims.ENDED_CHANNEL.equals(channel)) {
                runEnded(notification.getParameter());
            } else if (RunClaims.APPROVED_CHANNEL.equals(channel)) {
                approvedTenants.add(notification.getParameter());
            }
        }
        for (String tenant : approvedTenants) {
            try {
                starter.startApproved(tenant);
            } catch (RuntimeException e) {
                log.warn(
                        "Could not start the approved runs announced for a tenant ({}); the next poll starts them",
                        e.getMessage());
            }
        }
    }

    private void runEnded(String payload) {
        UUID runId;
        try {
            runId = UUID.fromString(payload);
        } catch (IllegalArgumentException e) {
            log.debug("Ignored an announcement of a run's end that names no run ({} characters)", payload.length());
            return;
        }
        completions.lookAgain(runId);
    }

    private void stopHearing() {
        if (completions.hearsEnds()) {
            completions.hearingEnds(false);
        }
    }

    /**
     * Gives the connection back to the pool as it found it when it still answers (no longer listening: a pooled
     * connection that listens would keep every announcement it receives), evicts it from the pool when it does not.
     */
    private void release(Connection connection) {
        try {
            if (connection.isValid(1)) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("UNLISTEN *");
                    statement.execute("RESET application_name");
                }
                connection.close();
                return;
            }
        } catch (SQLException | RuntimeException e) {
            log.debug("The listening connection failed: {}", e.getMessage());
        }
        PooledConnections.evict(dataSource, connection);
    }

    private static void sleep() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void destroy() {
        stopped = true;
        if (listener != null) {
            listener.interrupt();
        }
    }
}
