package dev.airlock.kernel.config;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.validation.beanvalidation.LocalValidatorFactoryBean;

/**
 * Binds a settings record at {@code airlock} outside an application context (commands that read
 * the configuration only, tests) the way the application does: defaults, conversions and the
 * record's constraints; a broken constraint is an {@link InvalidConfigurationException} naming
 * the key.
 */
public final class SettingsBinder {

    private SettingsBinder() {}

    /**
     * Binds {@code type} from {@code sources}.
     *
     * @throws InvalidConfigurationException for a setting that breaks a constraint or a record's own check
     * @throws BindException                 for a value that cannot be converted
     */
    public static <T> T bind(Iterable<ConfigurationPropertySource> sources, Class<T> type) {
        try (LocalValidatorFactoryBean validator = new LocalValidatorFactoryBean()) {
            validator.afterPropertiesSet();
            BindHandler handler = new ValidationBindHandler(validator);
            try {
                return new Binder(sources)
                        .bindOrCreate(
                                "airlock", org.springframework.boot.context.properties.bind.Bindable.of(type), handler);
            } catch (BindException e) {
                for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                    if (cause instanceof BindValidationException invalid) {
                        throw InvalidConfigurationException.of(invalid);
                    }
                    if (cause instanceof InvalidConfigurationException invalid) {
                        throw invalid;
                    }
                }
                throw e;
            }
        }
    }
}
