package dev.airlock.gateway.run;

import dev.airlock.gateway.support.MovableClock;
import dev.airlock.gateway.support.TestDatabaseConfiguration;
import dev.airlock.gateway.support.TestSecrets;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * A gateway of its own for tests that drain its executor or age its spool: a short drain, leases of a second and a
 * spooled result's lease kept for two. The test classes with this annotation share the one context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(
        properties = {
            "airlock.executor.drain-timeout=PT1S",
            "airlock.executor.lease-ttl=PT1S",
            "airlock.executor.lease-check-interval=PT0.05S",
            "airlock.executor.spool-lease-limit=PT2S"
        })
@ActiveProfiles("test")
@Import({TestDatabaseConfiguration.class, TestSecrets.class, MovableClock.Configuration.class})
@interface ExecutorTestContext {}
