package dev.airlock.approval.settings;

import dev.airlock.kernel.config.TenantDescriber;
import dev.airlock.kernel.digest.Sha256;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/**
 * The people's side's part of each tenant's configuration, for its audit event: retention, the
 * raw-access policy, and the webhooks by number and digest only (their URLs may carry tokens).
 */
@Component
class PeopleTenantDescriber implements TenantDescriber {

    private final PeopleSettings settings;

    PeopleTenantDescriber(PeopleSettings settings) {
        this.settings = settings;
    }

    @Override
    public Map<String, String> describe(String tenant) {
        PeopleSettings.Tenant config = settings.tenant(tenant);
        Map<String, String> description = new TreeMap<>();
        description.put("retention", config.retention().toString());
        description.put("rawAccess", config.rawAccess().toString());
        var webhooks = config.notifications().webhooks();
        description.put(
                "webhooks", webhooks.size() + (webhooks.isEmpty() ? "" : "/" + Sha256.hex(webhooks.toString())));
        return description;
    }
}
