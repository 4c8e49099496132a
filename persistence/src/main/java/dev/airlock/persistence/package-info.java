/**
 * Airlock's storage: JPA entities, Spring Data repositories and Flyway migrations for PostgreSQL.
 * Knows no web and no sanitizer types.
 */
@NullMarked
package dev.airlock.persistence;

import org.jspecify.annotations.NullMarked;
