package dev.airlock.gateway.capture;

import java.util.Optional;

/**
 * Where the gateway finds the values of {@code env:} secrets by name: its own environment by
 * default, a secret store in a deployment that has one. Values are read when a run starts and
 * never logged. ({@code file:} secrets are read by {@link SecretReference}.)
 */
@FunctionalInterface
public interface SecretSource {

    /** The value of the named secret, if it is set. */
    Optional<String> find(String name);

    /** Secrets from the gateway process's environment variables. */
    static SecretSource environment() {
        return name -> Optional.ofNullable(System.getenv(name)).filter(v -> !v.isEmpty());
    }
}
