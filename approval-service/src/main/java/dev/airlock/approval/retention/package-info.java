/** The scheduled retention purge of every tenant. */
package dev.airlock.approval.retention;
