package dev.airlock.kernel.config;

/** How every tool's process is isolated ({@code airlock.sandbox.mode}). */
public enum SandboxMode {
    /** Each run in its own bubblewrap sandbox, with limits. */
    BUBBLEWRAP,
    /** No sandbox: tools run as the gateway's own user. */
    NONE
}
