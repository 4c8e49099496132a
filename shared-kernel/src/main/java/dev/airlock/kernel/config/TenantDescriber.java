package dev.airlock.kernel.config;

import java.util.Map;

/**
 * Describes one side's part of a tenant's configuration, for the audit event that records each
 * change of it: names and digests, never a secret or anything that may carry one (a webhook URL
 * is described by its digest). Each side contributes its own; the descriptions are merged.
 */
@FunctionalInterface
public interface TenantDescriber {

    /** This side's part of {@code tenant}'s configuration, entry by entry. */
    Map<String, String> describe(String tenant);
}
