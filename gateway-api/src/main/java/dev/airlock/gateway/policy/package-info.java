/**
 * Tool approval policies and their evaluation for a new run.
 */
package dev.airlock.gateway.policy;
