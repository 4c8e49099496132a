package dev.airlock.egress;

import dev.airlock.egress.guard.EgressNetwork;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application's one {@link Egress}, which both sides send through: the system's resolver and
 * the direct network (a test replaces either with a {@code @Primary} bean of its own), resilience
 * metrics in the application's meter registry.
 */
@Configuration(proxyBeanMethods = false)
public class EgressConfiguration {

    @Bean
    DnsResolver egressResolver() {
        return SystemDefaultDnsResolver.INSTANCE;
    }

    @Bean
    EgressNetwork egressNetwork() {
        return EgressNetwork.DIRECT;
    }

    @Bean(destroyMethod = "close")
    Egress egress(DnsResolver resolver, EgressNetwork network, ObjectProvider<MeterRegistry> meters, Clock clock) {
        return new Egress(resolver, network, meters.getIfAvailable(), clock);
    }
}
