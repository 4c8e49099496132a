package dev.airlock.kernel.log;

import java.util.UUID;
import org.slf4j.MDC;

/**
 * Puts a run's id, its tenant and this replica's name into the logging context (MDC) for the
 * lines logged about it, so that structured logs ({@code logging.structured.format.console})
 * carry {@code runId}, {@code tenant} and {@code node} on every such line.
 */
public final class RunLog implements AutoCloseable {

    private static volatile String node = "unknown";

    private final String previousRun;
    private final String previousTenant;
    private final String previousNode;

    private RunLog(UUID runId, String tenant) {
        previousRun = MDC.get("runId");
        previousTenant = MDC.get("tenant");
        previousNode = MDC.get("node");
        MDC.put("runId", runId.toString());
        MDC.put("tenant", tenant);
        MDC.put("node", node);
    }

    /** Names this replica in every run's log context; set once at start-up. */
    public static void useNode(String name) {
        node = name;
    }

    /** Logs about {@code runId} of {@code tenant} until closed; restores what was there before. */
    public static RunLog of(UUID runId, String tenant) {
        return new RunLog(runId, tenant);
    }

    @Override
    public void close() {
        restore("runId", previousRun);
        restore("tenant", previousTenant);
        restore("node", previousNode);
    }

    private static void restore(String key, String value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }
}
