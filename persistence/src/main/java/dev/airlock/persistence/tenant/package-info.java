/**
 * Tenants, their agents and the tool definitions runs were requested under, as recorded from
 * the configuration.
 */
package dev.airlock.persistence.tenant;
