package dev.airlock.kernel.config;

/**
 * Stops a server start that was given {@code airlock.migrate-only}: the migration step is chosen
 * from the command line or the environment before any server exists; a server that still sees
 * the setting read it from a configuration file, where it would otherwise be ignored and the
 * migration job would start a whole gateway instead of migrating and stopping.
 */
public final class MigrateOnlyIsACommand {

    /** The setting, as the migration step reads it. */
    public static final String PROPERTY = "airlock.migrate-only";

    /**
     * @throws InvalidConfigurationException when {@code properties} ask for the migration step
     */
    public MigrateOnlyIsACommand(AirlockProperties properties) {
        if (properties.migrateOnly()) {
            throw new InvalidConfigurationException(
                    PROPERTY,
                    "runs the migration step: give it on the command line (--" + PROPERTY
                            + "=true) or as AIRLOCK_MIGRATE_ONLY=true, not in a configuration file the server reads");
        }
    }
}
