/**
 * Audit tooling of the gateway: the command that verifies tenants' audit chains.
 */
package dev.airlock.gateway.audit;
