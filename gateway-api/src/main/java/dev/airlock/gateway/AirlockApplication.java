package dev.airlock.gateway;

import dev.airlock.approval.audit.AuditVerifyCommand;
import dev.airlock.persistence.PersistenceConfiguration;
import dev.airlock.kernel.config.AirlockProperties;
import java.time.Clock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Starts the gateway. */
@SpringBootApplication(scanBasePackages = {"dev.airlock.gateway", "dev.airlock.persistence", "dev.airlock.approval"})
@ConfigurationPropertiesScan
@EnableConfigurationProperties(AirlockProperties.class)
@EnableScheduling
@Import(PersistenceConfiguration.class)
public class AirlockApplication {

    public static void main(String[] args) {
        if (dev.airlock.gateway.database.Migrations.requested(args)) {
            System.exit(dev.airlock.gateway.database.Migrations.run(args));
        }
        ConfigurableApplicationContext context = SpringApplication.run(AirlockApplication.class, args);
        // One-shot command: verify the audit chain and stop.
        if (context.getEnvironment().containsProperty(AuditVerifyCommand.PROPERTY)) {
            System.exit(SpringApplication.exit(context));
        }
    }

    /**
     * The property that makes the gateway apply the database migrations and stop: the migration
     * step of a deployment ({@code --spring.main.web-application-type=none --airlock.migrate-only=true}).
     */
    public static final String MIGRATE_ONLY = "airlock.migrate-only";

    /** The clock everything time-dependent reads; tests replace it. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
