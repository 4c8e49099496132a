/**
 * Tenants and their agents: who a bearer key belongs to, and the records that tie runs to them.
 */
package dev.airlock.gateway.tenant;
