package dev.airlock.gateway;

import dev.airlock.gateway.audit.AuditVerifyCommand;
import dev.airlock.persistence.PersistenceConfiguration;
import java.time.Clock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Starts the gateway. */
@SpringBootApplication(scanBasePackages = {"dev.airlock.gateway", "dev.airlock.persistence", "dev.airlock.approval"})
@ConfigurationPropertiesScan
@EnableScheduling
@Import(PersistenceConfiguration.class)
public class AirlockApplication {

    public static void main(String[] args) {
        ConfigurableApplicationContext context = SpringApplication.run(AirlockApplication.class, args);
        if (context.getEnvironment().containsProperty(AuditVerifyCommand.PROPERTY)) {
            System.exit(SpringApplication.exit(context));
        }
    }

    /** The clock everything time-dependent reads; tests replace it. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
