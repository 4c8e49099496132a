package dev.airlock.persistence.database;

import dev.airlock.kernel.config.AirlockProperties;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The migration step of a deployment ({@code --airlock.migrate-only=true}): applies the Flyway
 * migrations as the owner role and stops, without any of the application's own beans, which
 * work as {@code airlock_gateway} or {@code airlock_console} and so could not run as the owner.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableConfigurationProperties(AirlockProperties.class)
public class Migrations {

    /**
     * The property that makes the application apply the database migrations and stop: the migration
     * step of a deployment ({@code --spring.main.web-application-type=none --airlock.migrate-only=true}).
     */
    public static final String MIGRATE_ONLY = dev.airlock.kernel.config.MigrateOnlyIsACommand.PROPERTY;

    /** Whether {@code args} or the environment ask for the migration step alone. */
    public static boolean requested(String[] args) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new SimpleCommandLinePropertySource(args));
        return environment.getProperty(MIGRATE_ONLY, Boolean.class, false);
    }

    /** Migrates and returns the exit code. */
    public static int run(String[] args) {
        SpringApplication application = new SpringApplication(Migrations.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        return SpringApplication.exit(application.run(args));
    }
}
