package dev.airlock.gateway;

import dev.airlock.kernel.config.SettingsConfiguration;
import dev.airlock.persistence.PersistenceConfiguration;
import java.time.Clock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Starts the gateway. */
@SpringBootApplication(scanBasePackages = {"dev.airlock.gateway", "dev.airlock.persistence", "dev.airlock.approval"})
@EnableScheduling
@Import({SettingsConfiguration.class, PersistenceConfiguration.class, dev.airlock.egress.EgressConfiguration.class})
public class AirlockApplication {

    public static void main(String[] args) {
        if (dev.airlock.gateway.explain.PolicyExplainCommand.requested(args)) {
            // Reads the configuration only: no database, no web server.
            System.exit(dev.airlock.gateway.explain.PolicyExplainCommand.run(args, System.out, System.err));
        }
        if (dev.airlock.persistence.database.Migrations.requested(args)) {
            System.exit(dev.airlock.persistence.database.Migrations.run(args));
        }
        ConfigurableApplicationContext context = SpringApplication.run(AirlockApplication.class, args);
        // One-shot commands of the people's side: verify the audit chain, or print evidence keys, and stop.
        if (context.getEnvironment().containsProperty(AUDIT_VERIFY)
                || context.getEnvironment().containsProperty(EVIDENCE_PUBLIC_KEYS)) {
            System.exit(SpringApplication.exit(context));
        }
    }

    /** The property that runs the audit chain verification command ({@code airlock.audit.verify}, docs/audit.md). */
    static final String AUDIT_VERIFY = "airlock.audit.verify";

    /** The property that prints a tenant's evidence public keys ({@code airlock.evidence.public-keys}, docs/evidence.md). */
    static final String EVIDENCE_PUBLIC_KEYS = "airlock.evidence.public-keys";

    /** The clock everything time-dependent reads; tests replace it. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
