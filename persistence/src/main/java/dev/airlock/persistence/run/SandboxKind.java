package dev.airlock.persistence.run;

import java.util.Locale;

/** What a run's process was isolated by, as the supervisor started it. */
public enum SandboxKind {
    /** Its own user, PID, mount, IPC, UTS and network namespaces through bubblewrap, with resource limits. */
    BUBBLEWRAP,
    /** No isolation: the process ran as the gateway's user with the gateway's view of the host. */
    NONE;

    /** The name used in configuration and in the envelope: {@code bubblewrap} or {@code none}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
