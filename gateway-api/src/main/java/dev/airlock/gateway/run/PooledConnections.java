package dev.airlock.gateway.run;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the agent side's long-held connections (the node id's lock, the notifications' listener) share. */
final class PooledConnections {

    private static final Logger log = LoggerFactory.getLogger(PooledConnections.class);

    private PooledConnections() {}

    /**
     * Takes a connection that no longer answers out of the pool without a word to the database (a statement could
     * wait long), so that no one else is given it.
     */
    static void evict(DataSource dataSource, Connection connection) {
        try {
            if (dataSource.isWrapperFor(com.zaxxer.hikari.HikariDataSource.class)) {
                dataSource.unwrap(com.zaxxer.hikari.HikariDataSource.class).evictConnection(connection);
            } else {
                connection.abort(Runnable::run);
            }
        } catch (SQLException | RuntimeException e) {
            log.debug("A connection could not be evicted from the pool: {}", e.getMessage());
        }
    }
}
