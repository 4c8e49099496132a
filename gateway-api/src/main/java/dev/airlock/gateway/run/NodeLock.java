package dev.airlock.gateway.run;

import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.Side;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Makes this replica's node id ({@code airlock.node-id}) its own among the live replicas of one
 * database: a PostgreSQL session-level advisory lock on the id, held on a dedicated connection for
 * the replica's life. Runs are claimed, renewed and, after a restart, interrupted by node id, so two
 * live replicas with one id would end each other's runs; the second one's start stops instead,
 * naming the setting. A replica that died lost its session, and with it the lock: at once when its
 * process ended, within about a minute when its host did (the session asks PostgreSQL to probe its
 * peer: TCP keepalives after 10 s, a 30 s user timeout); a start waits up to
 * {@code airlock.executor.node-lock-wait} for such a lock. The lock's connection never waits for
 * the network longer than {@link #NETWORK_TIMEOUT}, so a lost database cannot hold the lease check.
 */
@ConditionalOnSide(Side.AGENT_API)
@Component
class NodeLock implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(NodeLock.class);

    /** The longest the lock's connection waits on the database for one statement. */
    static final Duration NETWORK_TIMEOUT = Duration.ofSeconds(5);

    /** The fewest pooled connections the agent side works with: this lock and approval notifications hold one each. */
    static final int MIN_POOL = 4;

    private final DataSource dataSource;
    private final String node;
    private final long key;
    private final Duration wait;
    private @Nullable Connection held;

    NodeLock(DataSource dataSource, RunExecutor executor, AgentSettings settings) {
        this.dataSource = dataSource;
        this.node = executor.node();
        this.key = key(node);
        this.wait = settings.executor().nodeLockWait();
    }

    /**
     * Takes the lock at start-up, waiting up to {@code node-lock-wait} for a holder PostgreSQL has
     * not yet found dead.
     *
     * @throws IllegalStateException when a live replica holds this node id
     * @throws InvalidConfigurationException when the pool is too small to lend a connection for life
     */
    synchronized void acquire() {
        requireLargeEnoughPool();
        long deadline = System.nanoTime() + wait.toNanos();
        boolean told = false;
        while (!lock()) {
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("airlock.node-id: another live replica on this database uses the node"
                        + " id '" + node + "'; give each replica its own airlock.node-id (docs/deployment.md)");
            }
            if (!told) {
                log.warn(
                        "Node id {} is held by another session; waiting up to {} for it (a replica that just died"
                                + " on another host), then stopping the start",
                        node,
                        wait);
                told = true;
            }
            sleep();
        }
        log.info("Node id {} is this replica's", node);
    }

    private void requireLargeEnoughPool() {
        try {
            if (dataSource.isWrapperFor(com.zaxxer.hikari.HikariDataSource.class)) {
                int size = dataSource
                        .unwrap(com.zaxxer.hikari.HikariDataSource.class)
                        .getMaximumPoolSize();
                if (size < MIN_POOL) {
                    throw new InvalidConfigurationException(
                            "spring.datasource.hikari.maximum-pool-size",
                            "is " + size + "; the agent side needs at least " + MIN_POOL
                                    + " (its node id's lock and approval notifications hold one connection each)");
                }
            }
        } catch (SQLException e) {
            // Not a Hikari pool: nothing to check.
        }
    }

    /**
     * Checks that the lock is still held (its connection survives a database restart only as a new
     * session) and takes it again if its session was lost; false, with an error logged, when another
     * live replica took this node id meanwhile.
     */
    synchronized boolean keep() {
        Connection connection = held;
        try {
            if (connection != null && connection.isValid((int) NETWORK_TIMEOUT.toSeconds())) {
                return true;
            }
        } catch (SQLException e) {
            // not valid: taken again below
        }
        boolean mine = lock();
        if (!mine) {
            log.error(
                    "Another live replica took the node id '{}' while this one had lost the database; both now"
                            + " end each other's runs: stop one of them and give each its own airlock.node-id",
                    node);
        }
        return mine;
    }

    private boolean lock() {
        drop();
        try {
            Connection connection = dataSource.getConnection();
            try {
                connection.setAutoCommit(true);
                connection.setNetworkTimeout(Runnable::run, (int) NETWORK_TIMEOUT.toMillis());
                try (Statement probe = connection.createStatement()) {
                    // Find a crashed host's session within about a minute, not the system's two hours.
                    probe.execute("SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5;"
                            + " SET tcp_keepalives_count = 3; SET tcp_user_timeout = 30000");
                }
                try (PreparedStatement statement = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                    statement.setLong(1, key);
                    try (ResultSet result = statement.executeQuery()) {
                        if (result.next() && result.getBoolean(1)) {
                            held = connection;
                            return true;
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                PooledConnections.evict(dataSource, connection);
                throw e;
            }
            connection.close();
            return false;
        } catch (SQLException e) {
            throw new org.springframework.dao.DataAccessResourceFailureException(
                    "the node id's lock could not be taken: " + e.getMessage(), e);
        }
    }

    /**
     * Lets the held connection go: unlocked and back to the pool when it still answers, evicted
     * from the pool without a word to the database when it does not (a statement could wait long).
     */
    private void drop() {
        Connection connection = held;
        held = null;
        if (connection == null) {
            return;
        }
        try {
            if (connection.isValid((int) NETWORK_TIMEOUT.toSeconds())) {
                try (PreparedStatement statement = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                    statement.setLong(1, key);
                    statement.execute();
                }
                connection.close();
                return;
            }
        } catch (SQLException e) {
            log.debug("Node id lock's connection failed: {}", e.getMessage());
        }
        PooledConnections.evict(dataSource, connection);
    }

    private static void sleep() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the node id's lock", e);
        }
    }

    @Override
    public synchronized void destroy() {
        drop();
    }

    /** The lock's key: 64 bits of SHA-256 over the node id, in a namespace of Airlock's own. */
    static long key(String node) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("airlock.node-id\0" + node).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
