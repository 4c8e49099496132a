package dev.airlock.gateway.support;

import java.util.List;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Puts every application context of these tests on the {@link TestNetwork} (names resolved only as
 * the tests say, connections only to loopback) with the webapi tenant's upstreams on the {@link
 * TestUpstream}, whatever else the test class configures: no test context can send a packet
 * elsewhere, not even a DNS query. Registered in {@code META-INF/spring.factories}.
 */
public class TestNetworkCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(
            Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
        return new Customizer();
    }

    /** The same for every test class, so that it never splits the context cache. */
    private static final class Customizer implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration merged) {
            new TestUpstream.Initializer().initialize(context);
            if (context.getBeanFactory() instanceof BeanDefinitionRegistry registry
                    && !registry.containsBeanDefinition("testNetwork")) {
                registry.registerBeanDefinition("testNetwork", new RootBeanDefinition(TestNetwork.class));
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Customizer;
        }

        @Override
        public int hashCode() {
            return Customizer.class.hashCode();
        }
    }
}
