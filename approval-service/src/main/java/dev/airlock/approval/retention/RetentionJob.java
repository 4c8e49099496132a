package dev.airlock.approval.retention;

import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.config.TenantNames;
import dev.airlock.persistence.retention.PurgeCounts;
import dev.airlock.persistence.retention.RetentionCutoffs;
import dev.airlock.persistence.retention.RetentionPurge;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Purges each tenant's records whose retention has ended, on a schedule
 * ({@code airlock.purge.*}). Replicas may all run it: a tenant's purge holds a PostgreSQL
 * advisory lock, and a replica that finds it taken skips the tenant until next time. A failure
 * in one tenant is logged and does not stop the others.
 */
@ConditionalOnSide(Side.CONSOLE)
@Component
public class RetentionJob {

    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    private final PeopleSettings properties;
    private final TenantNames tenants;
    private final RetentionPurge purge;
    private final Clock clock;
    private final dev.airlock.persistence.scope.Scopes scopes;

    RetentionJob(
            PeopleSettings properties,
            TenantNames tenants,
            RetentionPurge purge,
            Clock clock,
            dev.airlock.persistence.scope.Scopes scopes) {
        this.scopes = scopes;
        this.properties = properties;
        this.tenants = tenants;
        this.purge = purge;
        this.clock = clock;
    }

    @Scheduled(
            fixedDelayString = "${airlock.purge.interval:PT1H}",
            initialDelayString = "${airlock.purge.initial-delay:PT1M}")
    void scheduled() {
        if (properties.purge().enabled()) {
            purgeAll();
        }
    }

    /** Purges every tenant now; returns what was removed per tenant (absent: skipped or failed). */
    public Map<String, PurgeCounts> purgeAll() {
        Map<String, PurgeCounts> results = new TreeMap<>();
        for (String tenant : tenants.names()) {
            try {
                purge(tenant).ifPresent(counts -> results.put(tenant, counts));
            } catch (RuntimeException e) {
                log.error("Retention purge of tenant {} failed; it is retried at the next interval", tenant, e);
            }
        }
        return results;
    }

    /**
     * Purges one tenant now, by the clock; empty when another replica holds the tenant's purge.
     *
     * @throws IllegalArgumentException for a tenant that is not configured
     */
    public Optional<PurgeCounts> purge(String tenant) {
        if (!tenants.contains(tenant)) {
            throw new IllegalArgumentException("no tenant " + tenant);
        }
        Instant now = clock.instant();
        PeopleSettings.Retention r = properties.tenant(tenant).retention();
        RetentionCutoffs cutoffs = new RetentionCutoffs(
                now.minus(r.raw()), now.minus(r.transcripts()), now.minus(r.approvals()), now.minus(r.auditEvents()));
        Optional<PurgeCounts> counts = scopes.consoleJobs().call(() -> purge.purge(tenant, cutoffs, now));
        if (counts.isEmpty()) {
            log.debug("Retention purge of tenant {} skipped: another replica holds it", tenant);
        } else if (counts.get().any()) {
            log.info("Retention purge of tenant {}: {}", tenant, counts.get());
        }
        return counts;
    }
}
