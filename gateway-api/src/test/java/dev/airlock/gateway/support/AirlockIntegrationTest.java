package dev.airlock.gateway.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;

/**
 * The gateway with the test tenants ({@code application-test.yaml}) on a real PostgreSQL, its
 * OpenID Connect client registered with the {@link StubIdentityProvider} and the acme tenant's
 * webhook pointing at the {@link WebhookReceiver}, the webapi tenant's upstreams at the {@link
 * TestUpstream}, names resolved and connections checked by the {@link TestNetwork} (as in every
 * test context: {@link TestNetworkCustomizerFactory}). Tests with this annotation share one
 * application context, and so one database.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest
@AutoConfigureMockMvc
@ActiveProfiles("test")
@Import({TestDatabaseConfiguration.class, TestSecrets.class, MovableClock.Configuration.class})
@ContextConfiguration(initializers = {StubIdentityProvider.Initializer.class, WebhookReceiver.Initializer.class})
public @interface AirlockIntegrationTest {}
