/**
 * Personal access tokens that people create for bots, stored as SHA-256 digests.
 */
package dev.airlock.persistence.token;
