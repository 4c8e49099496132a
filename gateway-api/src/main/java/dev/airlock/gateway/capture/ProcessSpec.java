package dev.airlock.gateway.capture;

import dev.airlock.sanitizer.SecretRedactor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Exactly what to run and how to bound it.
 *
 * @param runId             the run, also set as {@code AIRLOCK_RUN_ID} in the child's environment
 * @param source            the name shown in fences, e.g. the tool name
 * @param argv              the argument vector; never passed through a shell
 * @param workingDir        the working directory, or null for a fresh empty directory removed afterwards
 * @param environment       the child's whole environment (nothing is inherited)
 * @param timeout           the time limit
 * @param maxRetainedBytes  per stream, bytes kept for the transcript and the raw artifact
 * @param maxObservedBytes  per stream, bytes after which the process tree is killed
 * @param redactor          the secrets injected into the environment, to redact from transcripts
 * @param sandbox           what the run may reach and use when it runs in a sandbox
 */
public record ProcessSpec(
        UUID runId,
        String source,
        List<String> argv,
        @Nullable Path workingDir,
        Map<String, String> environment,
        Duration timeout,
        long maxRetainedBytes,
        long maxObservedBytes,
        SecretRedactor redactor,
        SandboxPolicy sandbox) {

    /** The environment variable that marks every process of a run. */
    public static final String RUN_ID_VARIABLE = "AIRLOCK_RUN_ID";

    public ProcessSpec {
        argv = List.copyOf(argv);
        environment = Map.copyOf(environment);
        java.util.Objects.requireNonNull(sandbox, "sandbox");
    }
}
