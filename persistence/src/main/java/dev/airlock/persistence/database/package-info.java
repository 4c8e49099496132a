/**
 * The default database: a real PostgreSQL started by the gateway itself when no
 * {@code spring.datasource.url} is configured.
 */
package dev.airlock.persistence.database;
