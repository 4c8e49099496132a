/**
 * Decides whether a run may execute: tool policies now, approval requests and decisions as they
 * arrive. Depends on the persistence module only.
 */
package dev.airlock.approval;
