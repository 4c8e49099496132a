package dev.airlock.persistence.scope;

/**
 * Proof that the application's database login was checked before any scope is opened: the
 * application's start-up check (one that refuses a superuser, a role that bypasses row-level
 * security, the tables' owner, or a login that cannot assume its side's role) implements it,
 * and {@link Scopes} cannot be made without one.
 */
public interface CheckedLogin {}
