package dev.airlock.persistence.scope;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The database role and tenants that transactions begun on this thread work as. Request
 * filters open a scope for the caller (an agent: the gateway role and its tenant; a person: the
 * console role and their tenants); background jobs open one for the tenants they serve. A
 * transaction begun outside any scope works as the login role alone, which for a correctly
 * configured login may do nothing.
 *
 * @param role    the role every transaction assumes ({@code SET LOCAL ROLE})
 * @param tenants the tenants row-level security lets it see and write
 */
public record DatabaseScope(DatabaseRole role, List<String> tenants) {

    private static final ThreadLocal<DatabaseScope> CURRENT = new ThreadLocal<>();

    /** Copies and checks the tenants. */
    public DatabaseScope {
        Objects.requireNonNull(role, "role");
        tenants = List.copyOf(tenants);
    }

    /** A scope of {@code role} over {@code tenants}. */
    public static DatabaseScope of(DatabaseRole role, Collection<String> tenants) {
        return new DatabaseScope(role, List.copyOf(tenants));
    }

    /** The scope of this thread, if one is open. */
    public static Optional<DatabaseScope> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /**
     * Makes this the thread's scope until the returned handle is closed, which restores the
     * scope that was open before.
     */
    public Handle open() {
        DatabaseScope previous = CURRENT.get();
        CURRENT.set(this);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }

    /** Runs {@code work} in this scope. */
    public <T> T call(Supplier<T> work) {
        try (Handle handle = open()) {
            return work.get();
        }
    }

    /** Runs {@code work} in this scope. */
    public void run(Runnable work) {
        try (Handle handle = open()) {
            work.run();
        }
    }

    /** The tenants as a PostgreSQL {@code text[]} literal, every element quoted. */
    String tenantsLiteral() {
        StringBuilder literal = new StringBuilder("{");
        for (String tenant : tenants) {
            if (literal.length() > 1) {
                literal.append(',');
            }
            literal.append('"')
                    .append(tenant.replace("\\", "\\\\").replace("\"", "\\\""))
                    .append('"');
        }
        return literal.append('}').toString();
    }

    /** An open scope; closing it restores the previous one. */
    @FunctionalInterface
    public interface Handle extends AutoCloseable {
        @Override
        void close();
    }
}
