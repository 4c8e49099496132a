package dev.airlock.approval;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;

/**
 * The human side's feature packages as Spring Modulith application modules: no cycles between
 * them, and no module reaching into another's internal sub-packages (such as its {@code web}
 * adapters). The rules across Maven modules and between the two sides are checked on the whole
 * build by gateway-api's {@code ArchitectureTests}.
 */
class ModularityTests {

    @Test
    void theFeaturePackagesAreWellFormedModules() {
        ApplicationModules.of("dev.airlock.approval").verify();
    }
}
