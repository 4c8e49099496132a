/**
 * Small helpers shared by the gateway's features: digests and identifiers.
 */
package dev.airlock.gateway.support;
