package dev.airlock.persistence.retention;

/**
 * What one purge of one tenant removed.
 *
 * @param rawArtifacts  raw artifacts whose bytes were removed
 * @param transcripts   transcripts removed
 * @param approvals     approval requests removed, with their decisions
 * @param auditEvents   audit events removed from the start of the chain
 * @param runs          run rows removed once nothing linked to them remained
 */
public record PurgeCounts(int rawArtifacts, int transcripts, int approvals, int auditEvents, int runs) {

    /** Whether anything was removed. */
    public boolean any() {
        return rawArtifacts + transcripts + approvals + auditEvents + runs > 0;
    }
}
