package dev.airlock.kernel.config;

import java.util.Set;
import java.util.TreeSet;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * Every configured tenant: each name under {@code airlock.tenants} that any setting names, whichever
 * side's setting it is (a tenant may configure only tools, or only retention). Immutable.
 *
 * @param names the tenants' names, sorted
 */
public record TenantNames(Set<String> names) {

    private static final ConfigurationPropertyName TENANTS = ConfigurationPropertyName.of("airlock.tenants");

    public TenantNames {
        names = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(names));
    }

    /** The tenants the environment's settings name. */
    public static TenantNames of(Environment environment) {
        return of(ConfigurationPropertySources.get(environment));
    }

    /** The tenants these sources' settings name. */
    public static TenantNames of(Iterable<ConfigurationPropertySource> sources) {
        Set<String> names = new TreeSet<>();
        for (ConfigurationPropertySource source : sources) {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                iterable.filter(TENANTS::isAncestorOf).stream()
                        .forEach(name -> names.add(name.getElement(
                                TENANTS.getNumberOfElements(), ConfigurationPropertyName.Form.ORIGINAL)));
            }
        }
        return new TenantNames(names);
    }

    /** Whether {@code tenant} is configured. */
    public boolean contains(String tenant) {
        return names.contains(tenant);
    }
}
