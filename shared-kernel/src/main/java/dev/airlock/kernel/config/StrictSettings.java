package dev.airlock.kernel.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Stops the start on a setting under {@code airlock.*} that none of the settings records binds (a
 * misspelled {@code aproval:}, a key in the wrong place), naming it, so that a typo can never fail
 * open. Each side binds its own record from the same keys, so no single record can refuse the keys
 * it does not know; this check binds every {@code airlock} record the application registers,
 * notes every key they take, and refuses the rest, before any bean is made. Like Spring Boot's own
 * strict binding, it leaves environment variables and JVM system properties alone (they hold much
 * else), and it accepts elements of a list that a source of higher precedence replaced.
 *
 * <p>It also refuses two names of one map (users, tenants, agents, tools, ...) that Spring's relaxed
 * binding reads as one entry: {@code j-smith} and {@code jsmith}, {@code Alice} and {@code alice}.
 * The binder would merge them, one entry taking the other's keys (roles, secrets, network access)
 * where the other left them out.
 */
public final class StrictSettings implements BeanFactoryPostProcessor {

    private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("airlock");

    private final Environment environment;

    public StrictSettings(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        List<Class<?>> records = new ArrayList<>();
        for (String name : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = beanFactory.getType(name, false);
            ConfigurationProperties annotation =
                    type == null ? null : AnnotationUtils.findAnnotation(type, ConfigurationProperties.class);
            if (annotation != null && annotation.prefix().equals("airlock") && !records.contains(type)) {
                records.add(type);
            }
        }
        check(environment, records);
    }

    /**
     * Refuses the first setting under {@code airlock} in {@code environment} that none of
     * {@code records} (each bound at {@code airlock}) takes.
     *
     * @throws InvalidConfigurationException naming the key
     */
    public static void check(Environment environment, List<Class<?>> records) {
        Binder binder = Binder.get(environment);
        Set<ConfigurationPropertyName> bound = new HashSet<>();
        Set<ConfigurationPropertyName> maps = new HashSet<>();
        AbstractBindHandler tracking = new AbstractBindHandler() {
            @Override
            public Object onSuccess(
                    ConfigurationPropertyName name, Bindable<?> target, BindContext context, Object result) {
                bound.add(name);
                if (Map.class.isAssignableFrom(target.getType().toClass())) {
                    maps.add(name);
                }
                return result;
            }
        };
        for (Class<?> record : records) {
            binder.bind(ROOT, Bindable.of(record), tracking);
        }
        Map<ConfigurationPropertyName, String> entries = new HashMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable) || fromTheProcess(source)) {
                continue;
            }
            for (ConfigurationPropertyName name :
                    (Iterable<ConfigurationPropertyName>) iterable.filter(ROOT::isAncestorOf).stream()::iterator) {
                if (!bound.contains(name) && !replacedElement(name, bound)) {
                    throw new InvalidConfigurationException(
                            name.toString(),
                            "is not a setting Airlock knows (misspelled, or in"
                                    + " the wrong place?); every setting is listed in docs/configuration.md");
                }
                noTwin(name, maps, entries);
            }
            if (source.getUnderlyingSource() instanceof EnumerablePropertySource<?> raw) {
                for (String written : raw.getPropertyNames()) {
                    noDroppedCharacters(written);
                }
            }
        }
    }

    /**
     * Refuses a key under {@code airlock.} written with a character that Spring drops from names
     * ({@code bob+ci} is read as {@code bobci}, and would be merged with an entry of that name):
     * outside brackets, a name holds letters, digits, '-', '_' and the '.' between its parts.
     */
    private static void noDroppedCharacters(String written) {
        if (!written.regionMatches(true, 0, "airlock.", 0, "airlock.".length())) {
            return;
        }
        String outsideBrackets = written.replaceAll("\\[[^\\]]*\\]", "");
        for (int i = 0; i < outsideBrackets.length(); i++) {
            char c = outsideBrackets.charAt(i);
            if (!(c >= 'a' && c <= 'z'
                    || c >= 'A' && c <= 'Z'
                    || c >= '0' && c <= '9'
                    || c == '-'
                    || c == '_'
                    || c == '.')) {
                throw new InvalidConfigurationException(
                        written,
                        "holds '" + c + "', which Spring drops from names (it would read another name, and"
                                + " merge two entries); names use letters, digits, '-' and '_', or are written in"
                                + " brackets (\"[$filter]\": in YAML)");
            }
        }
    }

    /**
     * Refuses {@code name} if one of its map keys is written otherwise (case, '-' or '_') than a key
     * of the same map already seen, which the binder would read as the same entry.
     */
    private static void noTwin(
            ConfigurationPropertyName name,
            Set<ConfigurationPropertyName> maps,
            Map<ConfigurationPropertyName, String> entries) {
        // Keys of plain values too: the binder makes HTTP_PROXY and http_proxy two keys with one value,
        // whichever it read first. Written in brackets ("[http_proxy]") they are kept as written.
        for (int i = 1; i < name.getNumberOfElements(); i++) {
            if (!maps.contains(name.chop(i))) {
                continue;
            }
            String key = name.getElement(i, Form.ORIGINAL);
            String first = entries.putIfAbsent(name.chop(i + 1), key);
            if (first != null && !first.equals(key)) {
                throw new InvalidConfigurationException(
                        name.chop(i) + "." + key,
                        "names the same entry as '" + first + "' (names that differ only in case, '-' or '_'"
                                + " are read as one, and would share each other's settings); give them names that"
                                + " differ otherwise, or write both in brackets (\"[" + key + "]\": in YAML)");
            }
        }
    }

    /** Environment variables and JVM system properties hold much besides Airlock's settings. */
    private static boolean fromTheProcess(ConfigurationPropertySource source) {
        return source.getUnderlyingSource() instanceof PropertySource<?> underlying
                && (StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(underlying.getName())
                        || StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME.equals(underlying.getName()));
    }

    /**
     * A key within an element of a list ({@code x[2]} or {@code x[2].y}) that a source of higher
     * precedence replaced as a whole: the list was bound, that element was not.
     */
    private static boolean replacedElement(ConfigurationPropertyName name, Set<ConfigurationPropertyName> bound) {
        for (ConfigurationPropertyName element = name;
                element != null && !element.isEmpty();
                element = element.getParent()) {
            if (element.isLastElementIndexed()) {
                ConfigurationPropertyName list = element.chop(element.getNumberOfElements() - 1);
                return bound.contains(list) && !bound.contains(element);
            }
        }
        return false;
    }
}
