package dev.airlock.persistence.scope;

import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A JPA transaction manager that starts every transaction with
 * {@code SET LOCAL ROLE <role>} and {@code SET LOCAL airlock.tenants = <tenants>} from the
 * thread's {@link DatabaseScope}, in one round trip. PostgreSQL then enforces the role's grants
 * and the tenants' row-level security for everything the transaction does, JPA and JDBC alike;
 * both settings end with the transaction, so nothing carries over to the pooled connection's
 * next user.
 */
public class ScopedTransactionManager extends JpaTransactionManager {

    private static final String APPLY = "SELECT set_config('role', ?, true), set_config('airlock.tenants', ?, true)";

    /** A manager for {@code emf}. */
    public ScopedTransactionManager(EntityManagerFactory emf) {
        super(emf);
    }

    private static org.springframework.transaction.support.DefaultTransactionStatus newStatus(
            Object transaction, TransactionDefinition definition) {
        return new org.springframework.transaction.support.DefaultTransactionStatus(
                null, transaction, true, false, false, definition.isReadOnly(), false, null);
    }

    @Override
    protected void doBegin(Object transaction, TransactionDefinition definition) {
        super.doBegin(transaction, definition);
        DatabaseScope scope = DatabaseScope.current().orElse(null);
        if (scope == null) {
            return;
        }
        try {
            apply(scope);
        } catch (RuntimeException e) {
            // The transaction has begun but may not be used: end it and release what doBegin bound.
            try {
                doRollback(newStatus(transaction, definition));
            } catch (RuntimeException rollback) {
                e.addSuppressed(rollback);
            } finally {
                doCleanupAfterCompletion(transaction);
            }
            throw e;
        }
    }

    private void apply(DatabaseScope scope) {
        ConnectionHolder holder = (ConnectionHolder) TransactionSynchronizationManager.getResource(
                java.util.Objects.requireNonNull(getDataSource(), "dataSource"));
        if (holder == null) {
            throw new TransactionSystemException(
                    "No JDBC connection is bound to the transaction: cannot apply " + scope);
        }
        Connection connection = holder.getConnection();
        try (PreparedStatement statement = connection.prepareStatement(APPLY)) {
            statement.setString(1, scope.role().roleName());
            statement.setString(2, scope.tenantsLiteral());
            statement.execute();
        } catch (SQLException e) {
            // The same as failing to begin: a lost connection is a database outage like any other.
            throw new CannotCreateTransactionException(
                    "Could not work as " + scope.role().roleName()
                            + " (is the database reachable, and the login role a member of it? see docs/database.md)",
                    e);
        }
    }
}
