/**
 * Approval requests and decisions: opening a request for an exact action, recording decisions
 * under a row lock, quorum and expiry, and announcing every outcome.
 */
package dev.airlock.approval.request;
