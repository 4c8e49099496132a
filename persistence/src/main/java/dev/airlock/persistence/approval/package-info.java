/**
 * Approval requests and decisions: who authorized which exact action, stored apart from what
 * the action returned.
 */
package dev.airlock.persistence.approval;
