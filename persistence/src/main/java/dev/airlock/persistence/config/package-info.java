/**
 * The {@code airlock.*} configuration: tenants, agents, tools and limits, validated at start-up.
 */
package dev.airlock.persistence.config;
