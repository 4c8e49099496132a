package dev.airlock.gateway.tenant;

import dev.airlock.kernel.config.TenantNames;
import dev.airlock.persistence.tenant.TenantRecords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * Records the configured tenants and agents before the gateway takes requests, so that runs
 * reference rows that say who they were.
 */
@Component
class TenantRegistrar implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(TenantRegistrar.class);

    private final TenantNames tenants;
    private final AgentDirectory agents;
    private final TenantRecords records;

    private final dev.airlock.persistence.scope.Scopes scopes;

    TenantRegistrar(
            TenantNames tenants,
            AgentDirectory agents,
            TenantRecords records,
            dev.airlock.persistence.scope.Scopes scopes) {
        this.scopes = scopes;
        this.tenants = tenants;
        this.agents = agents;
        this.records = records;
    }

    @Override
    public void afterSingletonsInstantiated() {
        scopes.eitherSide().run(this::register);
    }

    private void register() {
        tenants.names().forEach(records::ensureTenant);
        agents.agentsByKeyHash().forEach((hash, agent) -> records.ensureAgent(agent.tenant(), agent.agent(), hash));
        log.info(
                "Airlock serves {} tenant(s) with {} agent(s)",
                tenants.names().size(),
                agents.agentsByKeyHash().size());
    }
}
