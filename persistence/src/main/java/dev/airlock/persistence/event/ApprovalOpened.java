package dev.airlock.persistence.event;

import java.time.Instant;
import java.util.UUID;

/**
 * Published, inside the requesting transaction, when a run starts waiting for humans.
 *
 * @param runId     the run
 * @param tenant    its tenant
 * @param tool      the tool
 * @param agent     the requesting agent
 * @param digest    SHA-256 of the canonical action
 * @param expiresAt when the request expires
 */
public record ApprovalOpened(UUID runId, String tenant, String tool, String agent, String digest, Instant expiresAt) {}
