package dev.airlock.gateway.support;

import io.micrometer.core.instrument.MeterRegistry;

/** Reads Airlock's counters tagged by tenant, as a test sees them in the gateway's registry. */
public final class TenantCounters {

    private TenantCounters() {}

    /** The count of counter {@code name} for {@code tenant}: 0 while nothing has counted it (it is not registered yet). */
    public static double count(MeterRegistry meters, String name, String tenant) {
        var counter = meters.find(name).tag("tenant", tenant).counter();
        return counter == null ? 0 : counter.count();
    }
}
