package dev.airlock.persistence.tenant;

import dev.airlock.kernel.config.TenantDescriber;
import dev.airlock.kernel.config.TenantNames;
import dev.airlock.kernel.digest.Sha256;
import dev.airlock.persistence.scope.Scopes;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * Records, at start-up, each tenant's configuration as both sides describe it ({@link TenantDescriber}),
 * and a {@code config.changed} audit event in the tenant's log whenever that description differs
 * from the one last recorded, so that an auditor sees when the tools, agents, limits or policies a
 * run went through changed. Secret values are never part of the configuration, so never part of
 * the event.
 */
@Component
class ConfigurationAudit implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(ConfigurationAudit.class);

    private final Scopes scopes;
    private final TenantNames tenants;
    private final List<TenantDescriber> describers;
    private final TenantRecords records;
    private final Clock clock;

    ConfigurationAudit(
            Scopes scopes, TenantNames tenants, List<TenantDescriber> describers, TenantRecords records, Clock clock) {
        this.scopes = scopes;
        this.tenants = tenants;
        this.describers = List.copyOf(describers);
        this.records = records;
        this.clock = clock;
    }

    @Override
    public void afterSingletonsInstantiated() {
        scopes.eitherSide().run(this::recordAll);
    }

    private void recordAll() {
        for (String tenant : tenants.names()) {
            Map<String, String> description = describe(tenant);
            String digest = Sha256.hex(description.toString());
            if (records.recordConfiguration(tenant, digest, description, clock.instant())) {
                log.info("Configuration of tenant {} changed (now {}); recorded in its audit log", tenant, digest);
            }
        }
    }

    /** Every side's description of {@code tenant}, merged. */
    Map<String, String> describe(String tenant) {
        Map<String, String> description = new TreeMap<>();
        describers.forEach(describer -> description.putAll(describer.describe(tenant)));
        return description;
    }
}
