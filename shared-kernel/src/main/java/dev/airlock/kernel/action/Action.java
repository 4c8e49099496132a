package dev.airlock.kernel.action;

import java.util.List;
import java.util.Map;
import java.util.SequencedCollection;
import org.jspecify.annotations.Nullable;

/**
 * The exact action a run executes, as approvers see it: everything that decides what the
 * process does and may reach, and nothing secret.
 *
 * @param tenant      the tenant
 * @param tool        the tool's name
 * @param argv        the command line, every element as it will be passed
 * @param workingDir  the working directory, or null for a fresh empty one
 * @param env         the environment the tool sets (values are not secret)
 * @param secretNames the names of the secrets injected from the gateway (their values are never shown)
 * @param timeout     the time limit, ISO-8601
 * @param sandbox     the sandbox it runs in, or null for a definition recorded before sandboxes existed
 */
public record Action(
        String tenant,
        String tool,
        List<String> argv,
        @Nullable String workingDir,
        Map<String, String> env,
        SequencedCollection<String> secretNames,
        String timeout,
        @Nullable Sandbox sandbox) {

    /**
     * The sandbox an action runs in, and what it lets the action reach.
     *
     * @param kind           {@code bubblewrap} or {@code none}
     * @param network        whether it has the host's network (isolated sandboxes only)
     * @param readOnlyPaths  host paths it may read
     * @param writablePaths  host paths it may write
     * @param maxProcesses   process limit
     * @param maxMemoryBytes address-space limit
     * @param maxFileBytes   file-size limit
     * @param maxOpenFiles   open-file limit
     * @param tmpBytes       size of its private /tmp
     */
    public record Sandbox(
            String kind,
            boolean network,
            List<String> readOnlyPaths,
            List<String> writablePaths,
            long maxProcesses,
            long maxMemoryBytes,
            long maxFileBytes,
            long maxOpenFiles,
            long tmpBytes) {

        /** The kind that isolates the action (the others run it as the gateway's user and list no terms). */
        public static final String BUBBLEWRAP = "bubblewrap";
    }
}
