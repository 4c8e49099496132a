package dev.airlock.gateway.upstream;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Keeps the HTTP client's header and wire logs off, whatever the logging settings say: at DEBUG
 * they would write every request's {@code Authorization} (and every credential header) to the
 * log. Set before any bean is made, after the logging settings are applied, so that no setting
 * (not even {@code logging.level.root=TRACE}) turns them on.
 */
@Configuration(proxyBeanMethods = false)
class ClientLogGuard {

    /** The Apache HttpClient 5 loggers that write headers and bytes as sent and received. */
    static final String[] LOGGERS = {"org.apache.hc.client5.http.headers", "org.apache.hc.client5.http.wire"};

    @Bean
    static BeanFactoryPostProcessor clientHeaderLogsOff() {
        return beanFactory -> {
            LoggingSystem logging = LoggingSystem.get(ClientLogGuard.class.getClassLoader());
            for (String logger : LOGGERS) {
                logging.setLogLevel(logger, LogLevel.OFF);
            }
        };
    }
}
