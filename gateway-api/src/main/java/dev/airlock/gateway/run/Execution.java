package dev.airlock.gateway.run;

import java.util.UUID;

/**
 * What executing a run needs, taken from the run as it was stored.
 *
 * @param runId            the run
 * @param tenant           its tenant
 * @param toolSnapshotId   the tool definition it was requested under
 * @param argvJson         its command line, as stored
 * @param approvalRequired whether people approved it (then the action is checked again before it starts)
 */
record Execution(UUID runId, String tenant, long toolSnapshotId, String argvJson, boolean approvalRequired) {}
