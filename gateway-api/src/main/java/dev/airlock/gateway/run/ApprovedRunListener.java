package dev.airlock.gateway.run;

import dev.airlock.persistence.run.RunClaims;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
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
 * Listens on PostgreSQL for approvals decided on any replica, this one included
 * ({@code LISTEN airlock_run_approved}; the human side's decision announces them in its
 * transaction) and starts the approved runs at once, instead of at the next poll. This is how the
 * agent side learns of a decision: through the database, never by a call from the human side. One dedicated
 * connection, one virtual thread; reconnects after a failure.
 */
@dev.airlock.kernel.config.ConditionalOnSide(dev.airlock.kernel.config.Side.AGENT_API)
@Component
class ApprovedRunListener implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ApprovedRunListener.class);

    private final DataSource dataSource;
    private final ApprovedRunDispatcher starter;
    private volatile boolean stopped;
    private @Nullable Thread listener;

    ApprovedRunListener(DataSource dataSource, ApprovedRunDispatcher starter) {
        this.dataSource = dataSource;
        this.starter = starter;
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        listener = Thread.ofVirtual().name("approval-notifications").start(this::listen);
    }

    private void listen() {
        while (!stopped) {
            try (Connection connection = dataSource.getConnection()) {
                PGConnection pg = connection.unwrap(PGConnection.class);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + RunClaims.APPROVED_CHANNEL);
                }
                connection.setAutoCommit(true);
                while (!stopped) {
                    PGNotification[] notifications = pg.getNotifications(1000);
                    if (notifications != null) {
                        for (PGNotification n : notifications) {
                            starter.startApproved(n.getParameter());
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!stopped) {
                    log.warn("Approval notifications interrupted ({}); reconnecting", e.getMessage());
                    sleep();
                }
            }
        }
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
