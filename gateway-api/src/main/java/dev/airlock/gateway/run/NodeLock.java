package dev.airlock.gateway.run;

import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * naming the setting. A replica that died lost its session, and with it the lock, so a restart under
 * the same id finds it free.
 */
@ConditionalOnSide(Side.AGENT_API)
@Component
class NodeLock implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(NodeLock.class);

    private final DataSource dataSource;
    private final String node;
    private final long key;
    private @Nullable Connection held;

    NodeLock(DataSource dataSource, RunExecutor executor) {
        this.dataSource = dataSource;
        this.node = executor.node();
        this.key = key(node);
    }

    /**
     * Takes the lock at start-up.
     *
     * @throws IllegalStateException when a live replica holds this node id
     */
    synchronized void acquire() {
        if (!lock()) {
            throw new IllegalStateException("airlock.node-id: another live replica on this database uses the node id '"
                    + node + "'; give each replica its own airlock.node-id (docs/deployment.md)");
        }
        log.info("Node id {} is this replica's", node);
    }

    /**
     * Checks that the lock is still held (its connection survives a database restart only as a new
     * session) and takes it again if its session was lost; false, with an error logged, when another
     * live replica took this node id meanwhile.
     */
    synchronized boolean keep() {
        try {
            if (held != null && held.isValid(2)) {
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
        close();
        try {
            Connection connection = dataSource.getConnection();
            connection.setAutoCommit(true);
            try (PreparedStatement statement = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                statement.setLong(1, key);
                try (ResultSet result = statement.executeQuery()) {
                    result.next();
                    if (result.getBoolean(1)) {
                        held = connection;
                        return true;
                    }
                }
            }
            connection.close();
            return false;
        } catch (SQLException e) {
            throw new org.springframework.dao.DataAccessResourceFailureException(
                    "the node id's lock could not be taken: " + e.getMessage(), e);
        }
    }

    private void close() {
        Connection connection = held;
        held = null;
        if (connection == null) {
            return;
        }
        try (connection) {
            if (!connection.isClosed()) {
                // Back to the pool without the lock: the session outlives this use of it.
                try (PreparedStatement statement = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                    statement.setLong(1, key);
                    statement.execute();
                }
            }
        } catch (SQLException e) {
            log.debug("Node id lock's connection closed with an error: {}", e.getMessage());
        }
    }

    @Override
    public synchronized void destroy() {
        close();
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
